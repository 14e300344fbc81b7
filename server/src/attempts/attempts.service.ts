import type { SubmitResult } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AppContext } from '../context'
import { isUniqueViolation } from '../db/errors'
import type { AttemptRow, DB } from '../db/schema'
import { toIso } from '../lib/clock'
import {
  countFirstAttemptScore,
  isLiveQuiz,
  listAnswers,
  listExpiredAttempts,
  listQuestionStates,
  markAttemptFinished,
} from './attempts.repository'
import { withAnswerKeys, type Paper, type QuestionPapers } from '../questions/question-papers'
import { keyedOutcome } from '../questions/answer-keys'
import { retryAfterKeyDecisions } from '../questions/key-locks'
import { lockLearner } from './learner-quizzes.repository'
import { putCardsInFirstBox } from './practice-deck.repository'
import { scoreAnswers, scoreBySection, toScore, type ScoredQuestion } from '../questions/scoring'
import { attemptSections } from '../questions/sections'

/** An attempt's saved answers, question id -> option id: the results feature reads them for the report card. */
export function listAttemptAnswers(db: Kysely<DB>, attemptId: number) {
  return listAnswers(db, attemptId)
}

/** An attempt's review marks, visits and seconds per question, for the report card. */
export function listAttemptQuestionStates(db: Kysely<DB>, attemptId: number) {
  return listQuestionStates(db, attemptId)
}

export { mayTakePaidQuizzes } from './paid-access'
export { isQuizActive } from './attempt-rules'
// The paper cache the learners' list shares with starts (services.ts builds one per process).
export type { CurrentQuestions, SectionSummary } from './current-questions'

/**
 * The rules every route shares about an attempt's life: when it is in progress, how it is finished when its time
 * runs out, and how a finished attempt reads as a result. Built once per process (services.ts): the quizzes list,
 * results and practice settle expired attempts through it before they read.
 */
export function createAttemptLifecycle({
  database,
  clock,
  config,
  papers,
}: Pick<AppContext, 'database' | 'clock' | 'config'> & { papers: QuestionPapers }) {
  const graceMs = config.submitGraceSeconds * 1000
  const isPostgres = database.dialect === 'postgres'

  /** In progress from its start until its deadline plus the grace period (API.md). */
  const isLive = (attempt: Pick<AttemptRow, 'status' | 'deadline'>, now: number) =>
    attempt.status === 'in_progress' && now <= attempt.deadline + graceMs
  const isExpired = (attempt: Pick<AttemptRow, 'status' | 'deadline'>, now: number) =>
    attempt.status === 'in_progress' && now > attempt.deadline + graceMs

  /**
   * Scores an attempt whose time ran out on the answers it saved; it completed at its deadline. The transaction
   * that calls it runs in retryAfterKeyDecisions: the keys are read locked (key-locks.ts).
   */
  async function finishTimedOut(trx: Kysely<DB>, attempt: AttemptRow): Promise<AttemptRow> {
    const paper = await withAnswerKeys(trx, await papers.paperFor(trx, attempt.revision_ids), { lock: isPostgres })
    const answers = await listAnswers(trx, attempt.id)
    const { total_questions: _total, ...score } = scoreAnswers(
      paper.questions,
      answers,
      attemptSections(attempt.sections, paper.questions.length),
    )
    const fields = { ...score, finished_at: attempt.deadline, late: 1, submitted: 0 }
    if (!(await markAttemptFinished(trx, attempt.id, fields)))
      throw new Error(`attempt ${attempt.id} was finished twice`)
    await recordFinish(trx, attempt, paper, answers, score.score_hundredths, attempt.deadline)
    return { ...attempt, ...fields, status: 'finished' }
  }

  /** Finishes, inside `trx`, every attempt of `attempts` whose time ran out; returns the list as it now stands. */
  async function settleRows(trx: Kysely<DB>, attempts: AttemptRow[], now: number) {
    const settled: AttemptRow[] = []
    for (const attempt of attempts) settled.push(isExpired(attempt, now) ? await finishTimedOut(trx, attempt) : attempt)
    return settled
  }

  /** Finishes the learner's attempts (at one quiz, or all) whose time ran out: "the next time anything asks". */
  async function settleExpired(userId: number, quizId?: number) {
    const now = clock.now()
    // Read first: most calls find nothing, and a read needs no write lock.
    if ((await listExpiredAttempts(database.db, userId, now - graceMs, { quizId })).length === 0) return
    await retryAfterKeyDecisions(database, () =>
      database.transaction(async (trx) => {
        if (isPostgres) await lockLearner(trx, userId)
        const expired = await listExpiredAttempts(trx, userId, now - graceMs, { quizId, lock: isPostgres })
        for (const attempt of expired) await finishTimedOut(trx, attempt)
      }),
    )
  }

  return { graceMs, isPostgres, isLive, isExpired, finishTimedOut, settleRows, settleExpired }
}

export type AttemptLifecycle = ReturnType<typeof createAttemptLifecycle>

/**
 * What the learning loop keeps of a just-finished attempt, in the transaction that finished it, however it
 * finished (submit, late submit, expiry): a first attempt's score in its quiz's tally (rank and percentile), and
 * the questions answered wrong or left unanswered in the learner's practice deck.
 */
export async function recordFinish(
  trx: Kysely<DB>,
  attempt: Pick<AttemptRow, 'user_id' | 'quiz_id' | 'attempt_number' | 'ranked'>,
  paper: Pick<Paper, 'questions'>,
  answers: ReadonlyMap<number, number | null>,
  scoreHundredths: number,
  finishedAt: number,
) {
  if (await countsInRankTally(trx, attempt)) await countFirstAttemptScore(trx, attempt.quiz_id, scoreHundredths)
  await addMistakesToDeck(trx, attempt.user_id, attempt.quiz_id, paper.questions, answers, finishedAt)
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

/**
 * Puts every question of a just-finished attempt that was answered wrong or left unanswered in the learner's deck,
 * in box 1. Called inside the transaction that finishes the attempt, however it finishes (submit, late, expiry).
 */
async function addMistakesToDeck(
  trx: Kysely<DB>,
  userId: number,
  quizId: number,
  questions: readonly ScoredQuestion[],
  answers: ReadonlyMap<number, number | null>,
  finishedAt: number,
) {
  const mistakes = questions
    .filter((question) => {
      const outcome = keyedOutcome(answers.get(question.questionId) ?? null, question.correctOptionId, question.key)
      return outcome === 'incorrect' || outcome === 'unanswered'
    })
    .map((question) => question.questionId)
  await putCardsInFirstBox(trx, userId, quizId, mistakes, finishedAt)
}

/**
 * A finished attempt as the submit route answers it; its sections' tallies are counted again from the answers it
 * was scored on (a finished score itself is never recomputed).
 */
export async function toSubmitResult(
  trx: Kysely<DB>,
  attempt: AttemptRow,
  paper: Pick<Paper, 'questions'>,
  answers?: ReadonlyMap<number, number | null>,
): Promise<SubmitResult> {
  const correct = attempt.correct ?? 0
  const incorrect = attempt.incorrect ?? 0
  const unanswered = attempt.unanswered ?? 0
  const sections = attemptSections(attempt.sections, paper.questions.length)
  const tallies = scoreBySection(paper.questions, answers ?? (await listAnswers(trx, attempt.id)), sections).sections
  return {
    // A question excluded by a key decision has left its section's maximum.
    max_score: toScore(tallies.reduce((sum, tally) => sum + tally.max_hundredths, 0)),
    sections: sections.map((section, index) => ({
      title: { en: section.title_en, ne: section.title_ne },
      score: toScore(tallies[index]!.score_hundredths),
      max_score: toScore(tallies[index]!.max_hundredths),
      correct: tallies[index]!.correct,
      incorrect: tallies[index]!.incorrect,
      unanswered: tallies[index]!.unanswered,
    })),
    attempt_id: attempt.id,
    score: toScore(attempt.score_hundredths ?? 0),
    correct,
    incorrect,
    unanswered,
    total_questions: correct + incorrect + unanswered,
    completed_timestamp: toIso(attempt.finished_at ?? attempt.deadline),
    late: attempt.late === 1,
  }
}

/**
 * Runs `work` again when a unique index refused a write: on PostgreSQL two first attempts of one learner can
 * race to the same attempt number before either is visible; the retry then sees the winner's row.
 */
export async function retryOnUniqueViolation<T>(work: () => Promise<T>, tries = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= tries) throw error
    }
  }
}
