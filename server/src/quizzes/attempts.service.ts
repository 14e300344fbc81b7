import type { AnswerMap, SubmitResult } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AppContext } from '../context'
import { isUniqueViolation } from '../db/errors'
import type { AttemptRow, DB } from '../db/schema'
import type { FieldErrors } from '../http/errors'
import { toIso } from '../lib/clock'
import { listAnswers, listExpiredAttempts, markAttemptFinished } from './attempts.repository'
import type { Paper, QuestionPapers } from '../questions/question-papers'
import { lockLearner } from './quizzes.repository'
import { scoreAnswers, toScore } from '../questions/scoring'

/** An attempt's saved answers, question id -> option id: the results feature reads them for the report card. */
export function listAttemptAnswers(db: Kysely<DB>, attemptId: number) {
  return listAnswers(db, attemptId)
}

/**
 * The rules every route shares about an attempt's life: when it is in progress, how it is finished when
 * its time runs out, and how a finished attempt reads as a result. Used by the quizzes and results routes.
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

  /** Scores an attempt whose time ran out on the answers it saved; it completed at its deadline. */
  async function finishTimedOut(trx: Kysely<DB>, attempt: AttemptRow): Promise<AttemptRow> {
    const paper = await papers.paperFor(trx, attempt.revision_ids)
    const { total_questions: _total, ...score } = scoreAnswers(paper.questions, await listAnswers(trx, attempt.id))
    const fields = { ...score, finished_at: attempt.deadline, late: 1, submitted: 0 }
    if (!(await markAttemptFinished(trx, attempt.id, fields)))
      throw new Error(`attempt ${attempt.id} was finished twice`)
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
    await database.transaction(async (trx) => {
      if (isPostgres) await lockLearner(trx, userId)
      const expired = await listExpiredAttempts(trx, userId, now - graceMs, { quizId, lock: isPostgres })
      for (const attempt of expired) await finishTimedOut(trx, attempt)
    })
  }

  return { graceMs, isPostgres, isLive, isExpired, finishTimedOut, settleRows, settleExpired }
}

export type AttemptLifecycle = ReturnType<typeof createAttemptLifecycle>

/** A finished attempt as the submit route answers it. */
export function toSubmitResult(attempt: AttemptRow): SubmitResult {
  const correct = attempt.correct ?? 0
  const incorrect = attempt.incorrect ?? 0
  const unanswered = attempt.unanswered ?? 0
  return {
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

/** Field errors for answers naming a question not on the paper, or an option not of that question. */
export function answerErrors(paper: Paper, answers: AnswerMap): FieldErrors | undefined {
  let errors: FieldErrors | undefined
  for (const [key, optionId] of Object.entries(answers)) {
    const question = paper.byQuestionId.get(Number(key))
    const problem = !question
      ? 'This question is not part of this quiz.'
      : optionId !== null && !question.optionIds.has(optionId)
        ? 'This option does not belong to this question.'
        : undefined
    if (problem) (errors ??= {})[`answers.${key}`] = [problem]
  }
  return errors
}

export const answerEntries = (answers: AnswerMap) =>
  Object.entries(answers).map(([key, optionId]) => [Number(key), optionId] as const)

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
