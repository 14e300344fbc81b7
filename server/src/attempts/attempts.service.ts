import type { PaperKeys } from './paper-keys.service'
import type { Kysely } from 'kysely'
import type { AppContext } from '../context'
import { isUniqueViolation } from '../db/errors'
import type { AttemptRow, DB } from '../db/schema'
import {
  findLatestRunningRankedDeadline,
  listAnswers,
  listAttempts,
  listExpiredAttempts,
  listExpiredOfQuiz,
  listQuestionStates,
} from './attempts.repository'
import type { Outcomes } from '../outcomes/outcomes.service'
import type { QuestionPapers } from '../questions/question-papers'
import { retryAfterKeyDecisions } from '../questions/key-locks'
import { lockLearner } from './learner-quizzes.repository'
import { createFinish } from './finish'
import type { NewAttempts } from './new-attempt'

export function listAttemptAnswers(db: Kysely<DB>, attemptId: number) {
  return listAnswers(db, attemptId)
}

export function listAttemptQuestionStates(db: Kysely<DB>, attemptId: number) {
  return listQuestionStates(db, attemptId)
}

export { isQuizActive } from './attempt-rules'
export { answerProblem } from './exam-state'
export { attemptColumns } from './attempts.repository'
export { findLatestRankedDeadline } from './withheld-keys.repository'
// A key decision puts the questions it makes wrong in the deck with the same writer a finish uses.
export { putCardsInFirstBox } from './practice-deck.repository'
// Every reader and writer of a learner's deck pays the cards their finishes owe it first (decision 080).
export { owesCards, payOwedCards } from './practice-deck.repository'
export type { CurrentQuestions, SectionSummary } from './current-questions'
export type { BegunAttempt, Finish, FinishTarget, Finished } from './finish'

// The quizzes list, results, practice and the leaderboard settle expired attempts through this before they read.
export function createAttemptLifecycle({
  database,
  clock,
  config,
  papers,
  outcomes,
}: Pick<AppContext, 'database' | 'clock' | 'config'> & { papers: QuestionPapers; outcomes?: Outcomes }) {
  const graceMs = config.submitGraceSeconds * 1000
  const isPostgres = database.dialect === 'postgres'
  const { finish, lockedPaper } = createFinish({ papers, isPostgres, outcomes })

  const isLive = (attempt: Pick<AttemptRow, 'status' | 'deadline'>, now: number) =>
    attempt.status === 'in_progress' && now <= attempt.deadline + graceMs
  const isExpired = (attempt: Pick<AttemptRow, 'status' | 'deadline'>, now: number) =>
    attempt.status === 'in_progress' && now > attempt.deadline + graceMs

  async function finishTimedOut(trx: Kysely<DB>, attempt: AttemptRow, boardLater = false): Promise<AttemptRow> {
    const finished = await finish(
      trx,
      { inProgress: attempt },
      { finishedAt: attempt.deadline, late: true, submitted: false, boardLater },
    )
    return finished.attempt
  }

  async function settleRows(trx: Kysely<DB>, attempts: AttemptRow[], now: number) {
    const settled: AttemptRow[] = []
    for (const attempt of attempts) settled.push(isExpired(attempt, now) ? await finishTimedOut(trx, attempt) : attempt)
    return settled
  }

  /** Read under the learner's lock (PostgreSQL; SQLite's transactions are exclusive): starts and submits decide on it. */
  async function settledAttempts(trx: Kysely<DB>, userId: number, quizId: number, now: number) {
    if (isPostgres) await lockLearner(trx, userId)
    return settleRows(trx, await listAttempts(trx, userId, quizId, { lock: isPostgres }), now)
  }

  async function settleExpired(userId: number, quizId?: number) {
    const now = clock.now()
    if ((await listExpiredAttempts(database.db, userId, now - graceMs, { quizId })).length === 0) return
    await retryAfterKeyDecisions(database, () =>
      database.transaction(async (trx) => {
        if (isPostgres) await lockLearner(trx, userId)
        const expired = await listExpiredAttempts(trx, userId, now - graceMs, { quizId, lock: isPostgres })
        for (const attempt of expired) await finishTimedOut(trx, attempt)
      }),
    )
  }

  /** Finishes up to `limit` expired attempts of the quiz; on PostgreSQL passes over rows another process holds. */
  async function finishExpiredOfQuiz(trx: Kysely<DB>, quizId: number, now: number, limit: number) {
    const expired = await listExpiredOfQuiz(trx, quizId, now - graceMs, { lock: isPostgres, skipLocked: true, limit })
    for (const attempt of expired) await finishTimedOut(trx, attempt, true)
    return expired.length
  }

  async function settleQuiz(trx: Kysely<DB>, quizId: number, now: number) {
    for (const attempt of await listExpiredOfQuiz(trx, quizId, now - graceMs, { lock: isPostgres }))
      await finishTimedOut(trx, attempt, true)
    return findLatestRunningRankedDeadline(trx, quizId)
  }

  // A key decision in the way (questions/key-locks.ts) or a unique index refusing a write means one more run.
  const attemptTransaction = <T>(work: (trx: Kysely<DB>) => Promise<T>) =>
    retryOnUniqueViolation(() => retryAfterKeyDecisions(database, () => database.transaction(work)))

  return {
    graceMs,
    isPostgres,
    isLive,
    isExpired,
    finish,
    lockedPaper,
    settleRows,
    settledAttempts,
    settleExpired,
    finishExpiredOfQuiz,
    settleQuiz,
    attemptTransaction,
  }
}

export type AttemptLifecycle = ReturnType<typeof createAttemptLifecycle>

export type AttemptServiceDeps = Pick<AppContext, 'database' | 'clock' | 'metrics'> & {
  papers: QuestionPapers
  lifecycle: AttemptLifecycle
  newAttempts: NewAttempts
  paperKeys: PaperKeys
}

// On PostgreSQL two first attempts can race to one attempt number before either is visible; the retry sees the winner.
export async function retryOnUniqueViolation<T>(work: () => Promise<T>, tries = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= tries) throw error
    }
  }
}
