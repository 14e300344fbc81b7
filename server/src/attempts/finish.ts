import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { keyedOutcome } from '../questions/answer-keys'
import { withAnswerKeys, type Paper, type QuestionPapers } from '../questions/question-papers'
import { scoreAnswers, type ScoredQuestion } from '../questions/scoring'
import { attemptSections } from '../questions/sections'
import {
  countFirstAttemptScore,
  deleteAttempt,
  insertAttempt,
  isLiveQuiz,
  listAnswers,
  markAttemptFinished,
  uncountFirstAttemptScore,
  upsertAnswers,
  type AnswerEntry,
} from './attempts.repository'
import { putCardsInFirstBox } from './practice-deck.repository'

/** The fields of an attempt that a finish does not set: who, which quiz, its paper and its clock. */
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

/**
 * Which attempt finishes: one in progress (a submit, a time-out), or one written finished at once (a submit with no
 * attempt in progress; a paper sitting, whose answers come from its sheet).
 */
export type FinishTarget = { inProgress: AttemptRow } | { begun: BegunAttempt }

export interface Finish {
  /**
   * The answers the attempt is scored on, question id -> option id (null: left unanswered). Omitted: its saved
   * answers (a time-out).
   */
  answers?: ReadonlyMap<number, number | null>
  /** Answers written with the finish: those of `answers` the attempt has not saved yet. */
  write?: readonly AnswerEntry[]
  finishedAt: number
  /** Finished after its deadline: timed out, or a live mock's ranked attempt submitted in its grace. */
  late: boolean
  /** The learner handed it in; a time-out was not. */
  submitted: boolean
  /** The attempt's paper with its keys read locked, when the caller read it already (to check the answers). */
  paper?: Paper
}

export interface Finished {
  attempt: AttemptRow
  paper: Paper
  answers: ReadonlyMap<number, number | null>
}

/**
 * The one way an attempt finishes, inside the caller's transaction: its paper's keys read locked, its answers
 * scored with its sections' marks, the attempt marked finished (or written finished), and the finish recorded in
 * the learning loop. The transaction runs in retryAfterKeyDecisions (questions/key-locks.ts).
 */
export function createFinish({ papers, isPostgres }: { papers: QuestionPapers; isPostgres: boolean }) {
  /**
   * The attempt's paper with its answer keys, read locked so a key decision waits for the finish. Scoring needs no
   * option order: the paper cache keeps one entry per paper, not one per learner's order.
   */
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

/**
 * What the learning loop keeps of a just-finished attempt: a ranked attempt's score in its quiz's tally (rank and
 * percentile), and the questions answered wrong or left unanswered in the learner's practice deck.
 */
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

/**
 * Undoes a finished attempt: its score leaves the quiz's rank tally if it was counted there, and the attempt goes
 * with its answers. A paper sitting's scan that is replaced, corrected or deleted withdraws the attempt it recorded.
 * Cards it put in the practice deck stay: practice never changes scores, and the questions were still missed on paper.
 */
export async function withdrawFinished(trx: Kysely<DB>, attempt: AttemptRow) {
  if (attempt.status === 'finished' && (await countsInRankTally(trx, attempt)))
    await uncountFirstAttemptScore(trx, attempt.quiz_id, attempt.score_hundredths!)
  await deleteAttempt(trx, attempt.id)
}

/**
 * Whether an attempt is its learner's one in the quiz's rank tally: the first attempt of an ordinary quiz, the
 * ranked one of a live mock (a learner has one at most; practice attempts have ranked = 0). The quiz is read only
 * for a later ranked attempt, which is then either an ordinary quiz's (not counted) or a live one's (counted).
 */
async function countsInRankTally(trx: Kysely<DB>, attempt: Pick<AttemptRow, 'quiz_id' | 'attempt_number' | 'ranked'>) {
  if (attempt.ranked !== 1) return false
  return attempt.attempt_number === 1 || (await isLiveQuiz(trx, attempt.quiz_id))
}

/** Puts every question answered wrong or left unanswered in the learner's deck, in box 1, due when it finished. */
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
