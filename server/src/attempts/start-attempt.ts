import type { QuizAttempt } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { paidAccessRequired } from '../accounts/paid-access'
import { hasPaidAccess } from '../accounts/paid-access.repository'
import { isUniqueViolation } from '../db/errors'
import type { AttemptRow, DB } from '../db/schema'
import { AppError } from '../http/errors'
import { refusedAfterCommit } from '../http/refusals'
import type { TokenUser } from '../http/tokens'
import { isQuizActive, nextAttemptNumber, onlineAttempts, quizNotActive } from './attempt-rules'
import { insertAttempt } from '../outcomes/outcomes.service'
import { listAnswers, listQuestionStates } from './attempts.repository'
import type { AttemptServiceDeps } from './attempts.service'
import {
  findAttemptsWithExtraTime,
  findQuizById,
  type LearnerQuiz,
  type LearnerQuizRow,
} from './learner-quizzes.repository'
import { liveNotStarted, livePhase, liveTimes, type LivePhase } from './live-window.service'
import { newAttemptRefusal } from './new-attempt'
import { createKeyWithholding } from './withheld-keys.service'
import { toQuizAttempt, type SavedWrittenAnswers, type StartedAttempt } from './quiz-attempt'

/** What of the learner shapes a new paper: their extra time, and a screen reader's adapted paper (decision 114). */
interface Learner {
  extraTimePercent: number
  screenReader: boolean
}

export function createStartAttempt({
  database,
  clock,
  metrics,
  papers,
  lifecycle,
  newAttempts,
  paperKeys,
  savedWritten,
}: AttemptServiceDeps & { savedWritten: SavedWrittenAnswers }) {
  const { db } = database
  const { isPostgres } = lifecycle
  const withholding = createKeyWithholding({ graceMs: lifecycle.graceMs })

  async function startAttempt(user: TokenUser, quizId: number): Promise<QuizAttempt> {
    const now = clock.now()
    const quiz = await findQuizById(db, quizId)
    if (!quiz) throw quizNotActive()
    const { attempts, extraTimePercent, screenReader } = await findAttemptsWithExtraTime(db, user.id, quiz.id)
    if (attempts.some((attempt) => lifecycle.isExpired(attempt, now))) await lifecycle.settleExpired(user.id, quiz.id)
    const live = attempts.find((attempt) => lifecycle.isLive(attempt, now))
    const times = liveTimes(quiz)
    const phase = times && livePhase(times, now)
    if (!live && phase === 'before') throw liveNotStarted()
    if (!live && !isQuizActive(quiz, now)) throw quizNotActive()
    if (quiz.is_paid_tier === 1 && !(await hasPaidAccess(db, user.id, now))) throw paidAccessRequired()
    if (live) return resume(db, quiz, live, onlineAttempts(attempts).length, now)
    const refusal =
      newAttemptRefusal(phase, quiz, attempts) ?? (await withholding.practiceRefusal(db, quiz, phase, now))
    if (refusal) throw refusal
    const first =
      isPostgres &&
      attempts.length === 0 &&
      (await startFirstAttempt(user, quiz, { extraTimePercent, screenReader }, now))
    if (first) return answer(quiz, first, now)

    const outcome = await refusedAfterCommit(
      lifecycle.attemptTransaction((trx) =>
        startOrResumeLocked(trx, user, quiz, phase, { extraTimePercent, screenReader }, now),
      ),
    )
    if (outcome.created) metrics.attemptStarted()
    return answer(quiz, outcome, now)
  }

  /** A live mock's attempt carries its paper's key from `starts_at`, never before (API.md "Live mocks"). */
  async function answer(quiz: LearnerQuiz, started: StartedAttempt, now: number) {
    const times = liveTimes(quiz)
    const key =
      times && now >= times.startsAt ? await paperKeys.attemptKey(db, quiz.id, started.attempt.revision_ids) : undefined
    return toQuizAttempt({ db, papers, savedWritten }, quiz, started, now, key)
  }

  async function resume(db: Kysely<DB>, quiz: LearnerQuiz, attempt: AttemptRow, count: number, now: number) {
    const [answers, states] = await Promise.all([listAnswers(db, attempt.id), listQuestionStates(db, attempt.id)])
    return answer(quiz, { attempt, fresh: false, count, answers, states }, now)
  }

  /** Under the learner's lock: another request may have started or finished an attempt since the first read. */
  async function startOrResumeLocked(
    trx: Kysely<DB>,
    user: TokenUser,
    quiz: LearnerQuizRow,
    phase: LivePhase | null,
    learner: Learner,
    now: number,
  ): Promise<(StartedAttempt & { created: boolean }) | AppError> {
    const current = await lifecycle.settledAttempts(trx, user.id, quiz.id, now)
    const inProgress = current.find((attempt) => lifecycle.isLive(attempt, now))
    if (inProgress) {
      const answers = await listAnswers(trx, inProgress.id)
      const states = await listQuestionStates(trx, inProgress.id)
      return {
        attempt: inProgress,
        fresh: false,
        count: onlineAttempts(current).length,
        answers,
        states,
        created: false,
      }
    }
    const refusal = newAttemptRefusal(phase, quiz, current)
    if (refusal) return refusal
    const attempt = await insertNewAttempt(trx, user, quiz, nextAttemptNumber(current), learner, now)
    return {
      attempt,
      fresh: true,
      count: onlineAttempts(current).length + 1,
      answers: new Map(),
      states: [],
      created: true,
    }
  }

  async function insertNewAttempt(
    trx: Kysely<DB>,
    user: TokenUser,
    quiz: LearnerQuizRow,
    number: number,
    { extraTimePercent, screenReader }: Learner,
    now: number,
  ) {
    const begun = await newAttempts.begin(trx, user.id, quiz, number, now, extraTimePercent, screenReader)
    return insertAttempt(trx, { ...begun, status: 'in_progress' })
  }

  // PostgreSQL: a first attempt takes no lock; the unique index lets one attempt 1 in, the loser goes the locked way (decision 040).
  async function startFirstAttempt(
    user: TokenUser,
    quiz: LearnerQuizRow,
    learner: Learner,
    now: number,
  ): Promise<StartedAttempt | undefined> {
    let attempt: AttemptRow
    try {
      attempt = await insertNewAttempt(db, user, quiz, 1, learner, now)
    } catch (error) {
      if (isUniqueViolation(error)) return undefined
      throw error
    }
    metrics.attemptStarted()
    return { attempt, fresh: true, count: 1, answers: new Map(), states: [] }
  }

  return startAttempt
}
