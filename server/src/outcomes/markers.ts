import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { OBJECTIVE_TYPES, scoreAnswers, type AnswerValue, type ScoredQuestion } from '../questions/scoring'
import type { AttemptSection } from '../questions/sections'
import type { AttemptScore } from './outcomes.repository'

export interface AttemptPart extends AttemptScore {
  /** Marks not final yet (a written answer awaiting release): the attempt is not ranked until they are. */
  pending: boolean
}

export interface MarkInput {
  /** Null for an attempt written finished at once (nothing of it is stored yet). */
  attemptId: number | null
  /** The whole paper in the attempt's order: places decide a question's section and marks. */
  questions: readonly ScoredQuestion[]
  sections: readonly AttemptSection[]
  answers: ReadonlyMap<number, AnswerValue>
}

export interface Marker {
  /** The question type it marks: `choice` (ScoredQuestion without `type`) or that of `ScoredQuestion.type`. */
  type: string
  /** Further types it marks: the objective marker takes `multiple` and `numeric` beside `choice`. */
  alsoTypes?: readonly string[]
  /** Reads what it needs in the finish's transaction; it writes nothing. */
  mark(trx: Kysely<DB>, input: MarkInput): AttemptPart | Promise<AttemptPart>
  /** Keeps what the type needs of a finished attempt (a written answer row for each written question), once it exists. */
  settle?(trx: Kysely<DB>, attempt: { id: number; revision_ids: string; finished_at: number | null }): Promise<void>
}

export const CHOICE = 'choice'

export const typeOf = (question: ScoredQuestion) => question.type ?? CHOICE

// Choice, multiple and numeric questions are marked from the answer alone, each by its pure function
// (questions/type-marks.ts) with its section's scheme; one pass keeps the sections' tallies whole.
export const choiceMarker: Marker = {
  type: CHOICE,
  alsoTypes: OBJECTIVE_TYPES.filter((type) => type !== CHOICE),
  mark(_trx, { questions, sections, answers }) {
    const { total_questions: _total, ...score } = scoreAnswers(questions, answers, sections)
    return { ...score, pending: false }
  },
}

const marks = (marker: Marker, type: string) => marker.type === type || (marker.alsoTypes?.includes(type) ?? false)

export async function markAttempt(trx: Kysely<DB>, markers: readonly Marker[], input: MarkInput): Promise<AttemptPart> {
  for (const question of input.questions)
    if (question.type !== undefined && !markers.some((marker) => marks(marker, question.type!)))
      throw new Error(`no marker for questions of type ${question.type}`)
  const total: AttemptPart = { score_hundredths: 0, correct: 0, incorrect: 0, unanswered: 0, pending: false }
  for (const marker of markers) {
    if (marker.type !== CHOICE && !input.questions.some((question) => marks(marker, typeOf(question)))) continue
    const part = await marker.mark(trx, input)
    total.score_hundredths += part.score_hundredths
    total.correct += part.correct
    total.incorrect += part.incorrect
    total.unanswered += part.unanswered
    total.pending ||= part.pending
  }
  return total
}
