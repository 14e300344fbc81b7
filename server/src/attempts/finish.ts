import type { Kysely } from 'kysely'
import { recountRankTally } from '../db/rank-tally'
import type { AttemptRow, DB } from '../db/schema'
import { keyedOutcome } from '../questions/answer-keys'
import { withAnswerKeys, type Paper, type QuestionPapers } from '../questions/question-papers'
import { scoreAnswers, type ScoredQuestion } from '../questions/scoring'
import { attemptSections } from '../questions/sections'
import {
  countFirstAttemptScore,
  deleteAttempt,
  hasEarlierRankedAttempt,
  insertAttempt,
  listAnswers,
  markAttemptFinished,
  upsertAnswers,
  type AnswerEntry,
} from './attempts.repository'
import { putCardsInFirstBox } from './practice-deck.repository'

export type BegunAttempt = Omit<
  AttemptRow,
  | 'id'
  | 'status'
  | 'finished_at'
  | 'score_hundredths'
  | 'correct'
  | 'incorrect'
  | 'unanswered'
  | 'late'
  | 'submitted'
  | 'current_section'
  | 'mode'
  | 'sitting_id'
> &
  Partial<Pick<AttemptRow, 'mode' | 'sitting_id'>>

export type FinishTarget = { inProgress: AttemptRow } | { begun: BegunAttempt }

export interface Finish {
  /** Omitted: its saved answers (a time-out). */
  answers?: ReadonlyMap<number, number | null>
  /** Answers written with the finish: those of `answers` the attempt has not saved yet. */
  write?: readonly AnswerEntry[]
  finishedAt: number
  /** Finished after its deadline: timed out, or a live mock's ranked attempt submitted in its grace. */
  late: boolean
  submitted: boolean
  /** The attempt's paper with its keys read locked, when the caller read it already (to check the answers). */
  paper?: Paper
}

export interface Finished {
  attempt: AttemptRow
  paper: Paper
  answers: ReadonlyMap<number, number | null>
}

/** The one way an attempt finishes; the caller's transaction runs in retryAfterKeyDecisions (questions/key-locks.ts). */
export function createFinish({ papers, isPostgres }: { papers: QuestionPapers; isPostgres: boolean }) {
  // Keys read locked so a key decision waits; no option order, so the cache keeps one entry per paper.
  const lockedPaper = async (trx: Kysely<DB>, attempt: Pick<AttemptRow, 'revision_ids'>) =>
    withAnswerKeys(trx, await papers.paperFor(trx, attempt.revision_ids), { lock: isPostgres })

  async function finish(trx: Kysely<DB>, target: FinishTarget, how: Finish): Promise<Finished> {
    const attempt = 'inProgress' in target ? target.inProgress : target.begun
    const paper = how.paper ?? (await lockedPaper(trx, attempt))
    const answers = how.answers ?? ('inProgress' in target ? await listAnswers(trx, target.inProgress.id) : new Map())
    const { total_questions: _total, ...score } = scoreAnswers(
      paper.questions,
      answers,
      attemptSections(attempt.sections, paper.questions.length),
    )
    const fields = { ...score, finished_at: how.finishedAt, late: how.late ? 1 : 0, submitted: how.submitted ? 1 : 0 }
    let finished: AttemptRow
    if ('inProgress' in target) {
      if (how.write) await upsertAnswers(trx, target.inProgress.id, how.write, how.finishedAt)
      if (!(await markAttemptFinished(trx, target.inProgress.id, fields)))
        throw new Error(`attempt ${target.inProgress.id} was finished twice`)
      finished = { ...target.inProgress, ...fields, status: 'finished' }
    } else {
      finished = await insertAttempt(trx, { ...target.begun, status: 'finished', ...fields })
      if (how.write) await upsertAnswers(trx, finished.id, how.write, how.finishedAt)
    }
    await recordFinish(trx, finished, paper.questions, answers)
    return { attempt: finished, paper, answers }
  }

  return { finish, lockedPaper }
}

async function recordFinish(
  trx: Kysely<DB>,
  attempt: AttemptRow,
  questions: readonly ScoredQuestion[],
  answers: ReadonlyMap<number, number | null>,
) {
  if (await countsInRankTally(trx, attempt))
    await countFirstAttemptScore(trx, attempt.quiz_id, attempt.score_hundredths!)
  await addMistakesToDeck(trx, attempt, questions, answers)
}

// The tally is counted afresh; practice cards stay (docs/decisions/056 "In the code").
export async function withdrawFinished(trx: Kysely<DB>, attempt: AttemptRow) {
  await deleteAttempt(trx, attempt.id)
  if (attempt.status === 'finished' && attempt.ranked === 1) await recountRankTally(trx, attempt.quiz_id)
}

// The lowest-numbered ranked attempt counts (db/rank-tally.ts): docs/decisions/056 "In the code".
async function countsInRankTally(
  trx: Kysely<DB>,
  attempt: Pick<AttemptRow, 'user_id' | 'quiz_id' | 'attempt_number' | 'ranked'>,
) {
  if (attempt.ranked !== 1) return false
  return attempt.attempt_number === 1 || !(await hasEarlierRankedAttempt(trx, attempt))
}

async function addMistakesToDeck(
  trx: Kysely<DB>,
  attempt: AttemptRow,
  questions: readonly ScoredQuestion[],
  answers: ReadonlyMap<number, number | null>,
) {
  const mistakes = questions
    .filter((question) => {
      const outcome = keyedOutcome(answers.get(question.questionId) ?? null, question.correctOptionId, question.key)
      return outcome === 'incorrect' || outcome === 'unanswered'
    })
    .map((question) => question.questionId)
  await putCardsInFirstBox(
    trx,
    [{ userId: attempt.user_id, quizId: attempt.quiz_id, questionIds: mistakes }],
    attempt.finished_at!,
  )
}
