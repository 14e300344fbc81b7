import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import type { AnswerValue } from '../questions/scoring'
import type { AttemptSection } from '../questions/sections'
import { answerEntries } from './exam-state'
import { findAttemptById, movePaperAttempts, type AnswerEntry } from './attempts.repository'
import type { AttemptLifecycle } from './attempts.service'
import { withdrawFinished, type BegunAttempt, type Finished } from './finish'
import { findQuizForSitting, type LearnerQuizRow } from './learner-quizzes.repository'
import type { NewAttempts } from './new-attempt'

export type SittingQuiz = LearnerQuizRow

export interface PaperAttemptInput {
  userId: number
  quizId: number
  sittingId: number
  /** A live quiz's paper attempt is ranked unless the learner already has a ranked attempt there. */
  isLiveQuiz: boolean
  heldAt: number
  deadline: number
  revisionIds: readonly number[]
  optionOrder: readonly (readonly number[])[]
  sections: string
  /** A choice question's option id, a multiple one's option ids, a numeric one's typed number (null: blank). */
  answers: ReadonlyMap<number, AnswerValue>
  /** The number of the attempt this one replaces (a re-read or corrected sheet), kept so numbers stay without gaps. */
  number?: number
  now: number
}

/** A choice or blank answer is written as a sheet's always was; the other types as exam-state stores them. */
const paperEntries = (answers: ReadonlyMap<number, AnswerValue>): AnswerEntry[] =>
  [...answers].map(([questionId, answer]) =>
    answer === null || typeof answer === 'number'
      ? [questionId, answer]
      : answerEntries({ [questionId]: typeof answer === 'string' ? answer : [...answer] })[0]!,
  )

export function createPaperAttempts({
  lifecycle,
  newAttempts,
}: {
  lifecycle: AttemptLifecycle
  newAttempts: NewAttempts
}) {
  async function drawSittingPaper(trx: Kysely<DB>, quiz: SittingQuiz, drawnFor: number, now: number) {
    const begun = await newAttempts.begin(
      trx,
      drawnFor,
      { ...quiz, shuffle_questions: 0, shuffle_options: 0, live_starts_at: null },
      1,
      now,
      0,
    )
    const sections = (JSON.parse(begun.sections ?? '[]') as AttemptSection[]).map(
      ({ limit_ms: _limit, ...section }) => ({ ...section, time_limit_minutes: null }),
    )
    return { revisionIds: JSON.parse(begun.revision_ids) as number[], sections }
  }

  // A concurrent online start taking the same number makes the transaction run again (lifecycle.attemptTransaction).
  async function record(trx: Kysely<DB>, input: PaperAttemptInput): Promise<Finished> {
    const attempts = await lifecycle.settledAttempts(trx, input.userId, input.quizId, input.now)
    const number = input.number ?? attempts.reduce((max, attempt) => Math.max(max, attempt.attempt_number), 0) + 1
    const ranked = input.isLiveQuiz && attempts.some((attempt) => attempt.ranked === 1) ? 0 : 1
    const begun: BegunAttempt = {
      user_id: input.userId,
      quiz_id: input.quizId,
      attempt_number: number,
      started_at: input.heldAt,
      deadline: input.deadline,
      revision_ids: JSON.stringify(input.revisionIds),
      option_order: JSON.stringify(input.optionOrder),
      sections: input.sections,
      section_opened_at: null,
      ranked,
      mode: 'paper',
      sitting_id: input.sittingId,
    }
    const finished = await lifecycle.finish(
      trx,
      { begun },
      {
        answers: input.answers,
        write: paperEntries(input.answers),
        finishedAt: input.heldAt,
        late: false,
        submitted: true,
        // A replacement takes back its number after the withdrawal let a later attempt be the counted one.
        replacing: input.number !== undefined,
      },
    )
    return finished
  }

  async function withdraw(trx: Kysely<DB>, attemptId: number): Promise<AttemptRow | undefined> {
    const attempt = await findAttemptById(trx, attemptId)
    if (attempt) await withdrawFinished(trx, attempt)
    return attempt
  }

  return {
    findQuiz: findQuizForSitting,
    drawSittingPaper,
    record,
    withdraw,
    move: movePaperAttempts,
    transaction: lifecycle.attemptTransaction,
  }
}

export type PaperAttempts = ReturnType<typeof createPaperAttempts>
