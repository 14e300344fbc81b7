import {
  messages,
  type Difficulty,
  type QuizAttempt,
  type QuizListItem,
  type ExamStateInput,
  type QuizQuestion,
  type SaveAnswersBody,
  type SaveAnswersResult,
  type SubmitAttemptBody,
  type SubmitResult,
} from '@quiz/contracts'
import type { TokenUser } from '../http/tokens'
import type { AppContext } from '../context'
import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { AppError, Conflict, NotFound, PermissionDenied, ValidationFailed } from '../http/errors'
import { toIso, toIsoOrNull } from '../lib/clock'
import {
  findLatestAttempt,
  insertAttempt,
  isAttemptInProgress,
  isAttemptInProgressLocked,
  listAnswers,
  listAttempts,
  listQuestionStates,
  markAttemptFinished,
  upsertAnswerIfInProgress,
  upsertAnswers,
} from './attempts.repository'
import {
  answerEntries,
  answerErrors,
  examStateErrors,
  hasExamState,
  retryOnUniqueViolation,
  recordFinish,
  storeExamState,
  toExamState,
  toSubmitResult,
  type AttemptLifecycle,
} from './attempts.service'
import type { Paper, QuestionPapers } from '../questions/question-papers'
import {
  findQuizById,
  findQuizWithAttemptInProgress,
  findExtraTimePercent,
  hasPaidAccess,
  mayTakePaidQuizzes,
  listActiveQuizzesForLearner,
  lockLearner,
  type LearnerQuizRow,
} from './quizzes.repository'
import { scoreAnswers } from '../questions/scoring'
import { createCurrentQuestions } from './current-questions'
import { shuffled, type RandomInt } from '../lib/random'

/** A late submission finds the attempt whose time ran out if that happened at most this long ago (API.md). */
const LATE_SUBMISSION_WINDOW_MS = 60 * 60 * 1000

const noAttemptInProgress = () => new PermissionDenied('You have no attempt in progress for this quiz.')
const noAttemptsLeft = () => new PermissionDenied(messages.noAttemptsLeft, 'no_attempts_left')
const paidAccessRequired = () => new PermissionDenied(messages.paidAccessRequired, 'paid_access_required')
const quizNotActive = () => new NotFound(messages.quizNotActive)

/** Active when `start_time <= now < end_time`; a missing end is open. */
export const isQuizActive = (quiz: { start_time: number; end_time: number | null }, now: number) =>
  quiz.start_time <= now && (quiz.end_time === null || now < quiz.end_time)

/** The fields every learner view of a quiz starts with (the list and the started attempt). */
const toQuizSummary = (quiz: LearnerQuizRow, attemptCount: number) => ({
  id: quiz.id,
  title: { en: quiz.title_en, ne: quiz.title_ne },
  duration_minutes: quiz.duration_minutes,
  difficulty: quiz.difficulty as Difficulty,
  is_paid_tier: quiz.is_paid_tier === 1,
  allowed_attempts: quiz.allowed_attempts,
  remaining_attempts: Math.max(0, quiz.allowed_attempts - attemptCount),
})

/**
 * `deadline = min(started_at + duration × (1 + extra/100), end_time)`: a learner's extra time lengthens the
 * attempt but never past the quiz's end. 600 ms per percent-minute keeps it a whole number of milliseconds.
 */
const deadlineFor = (quiz: LearnerQuizRow, startedAt: number, extraTimePercent: number) =>
  Math.min(
    startedAt + quiz.duration_minutes * (60_000 + 600 * extraTimePercent),
    quiz.end_time ?? Number.POSITIVE_INFINITY,
  )

export function createQuizService({
  database,
  clock,
  metrics,
  papers,
  lifecycle,
  random,
}: Pick<AppContext, 'database' | 'clock' | 'metrics'> & {
  papers: QuestionPapers
  lifecycle: AttemptLifecycle
  /** The source of shuffles; cryptographic unless a test injects its own. */
  random?: RandomInt
}) {
  const { db } = database
  const { isPostgres } = lifecycle
  const currentRevisionIds = createCurrentQuestions()

  /**
   * The paper a new attempt gets: the quiz's current questions, in an order of its own when the quiz shuffles
   * questions, and with each question's options in an order of their own when it shuffles options. Drawn once
   * and stored with the attempt (docs/decisions/008-paper-order-stored-with-the-attempt.md).
   */
  async function drawPaper(trx: Kysely<DB>, quiz: LearnerQuizRow) {
    const authored = await currentRevisionIds(trx, quiz.id)
    const revisionIds = JSON.stringify(quiz.shuffle_questions === 1 ? shuffled(authored, random) : authored)
    if (quiz.shuffle_options !== 1) return { revision_ids: revisionIds, option_order: null }
    const paper = await papers.paperFor(trx, revisionIds)
    const optionOrder = paper.questions.map((question) =>
      shuffled(
        question.learner.options.map((option) => option.id),
        random,
      ),
    )
    return { revision_ids: revisionIds, option_order: JSON.stringify(optionOrder) }
  }

  /**
   * Who, which quiz, which number, begun when and due when: the fields every new attempt starts with. Numbers are
   * 1..n without gaps, so the unique (user, quiz, number) index caps attempts at allowed_attempts.
   */
  async function attemptBegun(trx: Kysely<DB>, userId: number, quiz: LearnerQuizRow, number: number, now: number) {
    return {
      user_id: userId,
      quiz_id: quiz.id,
      attempt_number: number,
      started_at: now,
      deadline: deadlineFor(quiz, now, await findExtraTimePercent(trx, userId)),
    }
  }

  const invalidExamState = (paper: Paper, input: ExamStateInput) => {
    const errors = {
      ...answerErrors(paper, (input as SaveAnswersBody).answers ?? {}),
      ...examStateErrors(paper, input),
    }
    return Object.keys(errors).length > 0
      ? new ValidationFailed(errors, 'Some answers, marks or times do not belong to this quiz.')
      : undefined
  }

  async function listQuizzes(user: TokenUser): Promise<QuizListItem[]> {
    const now = clock.now()
    const rows = await listActiveQuizzesForLearner(db, user.id, now)
    const isLive = (deadline: number | null) =>
      deadline !== null && lifecycle.isLive({ status: 'in_progress', deadline }, now)
    if (rows.some((row) => row.in_progress_deadline !== null && !isLive(row.in_progress_deadline))) {
      await lifecycle.settleExpired(user.id)
    }
    return rows.map((row) => {
      const hasAttemptInProgress = isLive(row.in_progress_deadline)
      const mayTake = row.is_paid_tier === 0 || mayTakePaidQuizzes(row, now)
      const remainingAttempts = Math.max(0, row.allowed_attempts - row.attempt_count)
      // The summary's fields written out (see toQuizSummary), not spread: this runs for every quiz of every list.
      return {
        id: row.id,
        title: { en: row.title_en, ne: row.title_ne },
        duration_minutes: row.duration_minutes,
        difficulty: row.difficulty as Difficulty,
        is_paid_tier: row.is_paid_tier === 1,
        allowed_attempts: row.allowed_attempts,
        remaining_attempts: remainingAttempts,
        has_attempt_in_progress: hasAttemptInProgress,
        can_start: mayTake && (hasAttemptInProgress || remainingAttempts > 0),
        start_time: toIso(row.start_time),
        end_time: toIsoOrNull(row.end_time),
        question_count: row.question_count,
      }
    })
  }

  /** Starts the learner's attempt, or resumes the one in progress (the same attempt on every call). */
  async function startAttempt(user: TokenUser, quizId: number): Promise<QuizAttempt> {
    const now = clock.now()
    const quiz = await findQuizById(db, quizId)
    if (!quiz) throw quizNotActive()
    const attempts = await listAttempts(db, user.id, quiz.id)
    if (attempts.some((attempt) => lifecycle.isExpired(attempt, now))) await lifecycle.settleExpired(user.id, quiz.id)
    const live = attempts.find((attempt) => lifecycle.isLive(attempt, now))
    if (!live && !isQuizActive(quiz, now)) throw quizNotActive()
    if (quiz.is_paid_tier === 1 && !(await hasPaidAccess(db, user.id, now))) throw paidAccessRequired()
    if (live) {
      const [answers, states] = await Promise.all([listAnswers(db, live.id), listQuestionStates(db, live.id)])
      return toQuizAttempt(quiz, live, attempts.length, answers, states, now)
    }
    if (attempts.length >= quiz.allowed_attempts) throw noAttemptsLeft()

    const outcome = await retryOnUniqueViolation(() =>
      database.transaction(async (trx) => {
        // Re-read under the lock: another request (or process) may have started or finished one meanwhile.
        if (isPostgres) await lockLearner(trx, user.id)
        const current = await lifecycle.settleRows(
          trx,
          await listAttempts(trx, user.id, quiz.id, { lock: isPostgres }),
          now,
        )
        const inProgress = current.find((attempt) => lifecycle.isLive(attempt, now))
        if (inProgress) {
          const answers = await listAnswers(trx, inProgress.id)
          const states = await listQuestionStates(trx, inProgress.id)
          return { attempt: inProgress, count: current.length, answers, states, created: false }
        }
        if (current.length >= quiz.allowed_attempts) return noAttemptsLeft()
        const attempt = await insertAttempt(trx, {
          ...(await attemptBegun(trx, user.id, quiz, current.length + 1, now)),
          status: 'in_progress',
          ...(await drawPaper(trx, quiz)),
          finished_at: null,
          score_hundredths: null,
          correct: null,
          incorrect: null,
          unanswered: null,
        })
        return {
          attempt,
          count: current.length + 1,
          answers: new Map<number, number | null>(),
          states: [],
          created: true,
        }
      }),
    )
    if (outcome instanceof AppError) throw outcome
    if (outcome.created) metrics.attemptStarted()
    return toQuizAttempt(quiz, outcome.attempt, outcome.count, outcome.answers, outcome.states, now)
  }

  async function toQuizAttempt(
    quiz: LearnerQuizRow,
    attempt: AttemptRow,
    attemptCount: number,
    answers: Map<number, number | null>,
    states: Awaited<ReturnType<typeof listQuestionStates>>,
    now: number,
  ): Promise<QuizAttempt> {
    const paper = await papers.paperFor(db, attempt.revision_ids, attempt.option_order)
    const saved: Record<string, number> = {}
    for (const [questionId, optionId] of answers) if (optionId !== null) saved[questionId] = optionId
    return {
      ...toQuizSummary(quiz, attemptCount),
      question_count: paper.questions.length,
      questions: paper.questionRefs as { id: number }[],
      attempt: {
        id: attempt.id,
        started_at: toIso(attempt.started_at),
        deadline: toIso(attempt.deadline),
        remaining_seconds: Math.max(0, Math.floor((attempt.deadline - now) / 1000)),
        answers: saved,
        ...toExamState(paper, states),
      },
    }
  }

  /**
   * The quiz and the learner's attempt in progress, after the route-wide checks: 404 for an unknown quiz or an
   * inactive one without an attempt in progress, then 403 without an attempt in progress. One query when warm.
   */
  async function liveAttemptAt(user: TokenUser, quizId: number, now: number) {
    const row = await findQuizWithAttemptInProgress(db, quizId, user.id)
    if (!row) throw quizNotActive()
    const live =
      row.attempt_id !== null && lifecycle.isLive({ status: 'in_progress', deadline: row.deadline! }, now)
        ? {
            id: row.attempt_id,
            deadline: row.deadline!,
            started_at: row.started_at!,
            revision_ids: row.revision_ids!,
            option_order: row.option_order ?? null,
          }
        : undefined
    if (row.attempt_id !== null && !live) await lifecycle.settleExpired(user.id, quizId)
    if (!live && !isQuizActive(row, now)) throw quizNotActive()
    return live
  }

  async function getQuestion(user: TokenUser, quizId: number, number: number): Promise<QuizQuestion> {
    const live = await liveAttemptAt(user, quizId, clock.now())
    if (!live) throw noAttemptInProgress()
    const question = (await papers.paperFor(db, live.revision_ids, live.option_order)).questions[number - 1]
    if (!question) throw new NotFound('Question not found.')
    return { ...question.learner, number }
  }

  /**
   * Autosave: merges answers and marks, adds visits and seconds, on the attempt in progress; refused after the
   * deadline (no grace for saves). One transaction; the usual single answer on SQLite is one statement.
   */
  async function saveAnswers(user: TokenUser, quizId: number, body: SaveAnswersBody): Promise<SaveAnswersResult> {
    const now = clock.now()
    const live = await liveAttemptAt(user, quizId, now)
    if (!live) {
      const latest = await findLatestAttempt(db, user.id, quizId)
      if (!latest) throw noAttemptInProgress()
      throw latest.submitted === 1 ? alreadySubmitted() : timeIsUp()
    }
    if (now > live.deadline) throw timeIsUp()
    const invalid = invalidExamState(await papers.paperFor(db, live.revision_ids), body)
    if (invalid) throw invalid
    const entries = answerEntries(body.answers ?? {})
    const withState = hasExamState(body)
    if (entries.length === 0 && !withState) return { saved: 0 }
    if (!isPostgres && !withState && entries.length === 1) {
      // The usual autosave: one statement instead of a transaction of four, committed with whatever other writes
      // arrive meanwhile (group commit).
      const [[questionId, optionId]] = entries as [(typeof entries)[number]]
      const saved = await database.transaction((trx) =>
        upsertAnswerIfInProgress(trx, live.id, questionId, optionId, now),
      )
      if (!saved) throw alreadySubmitted()
      return { saved: 1 }
    }
    await database.transaction(async (trx) => {
      // A submit may have finished the attempt since it was read; on PostgreSQL FOR SHARE also holds one off, and a
      // report with seconds takes a lock that also queues the attempt's other such reports (the cap reads a total).
      const inProgress =
        isPostgres && withState
          ? await isAttemptInProgressLocked(trx, live.id)
          : await isAttemptInProgress(trx, live.id, { share: isPostgres })
      if (!inProgress) throw alreadySubmitted()
      await upsertAnswers(trx, live.id, entries, now)
      if (withState) await storeExamState(trx, live, body, now)
    })
    return { saved: entries.length }
  }

  async function submitAttempt(user: TokenUser, quizId: number, body: SubmitAttemptBody): Promise<SubmitResult> {
    const now = clock.now()
    const quiz = await findQuizById(db, quizId)
    if (!quiz) throw quizNotActive()
    const entries = answerEntries(body.answers)
    const withState = hasExamState(body)
    const invalidAnswers = (paper: Paper) => invalidExamState(paper, body)
    // Set when this request finished an attempt (not when it answered a retry of one already finished).
    let finished = false

    const outcome = await retryOnUniqueViolation(() =>
      database.transaction(async (trx): Promise<SubmitResult | AppError> => {
        finished = false
        // Serialise the learner's submits and starts; the attempt rows are locked before their answers are read.
        if (isPostgres) await lockLearner(trx, user.id)
        const attempts = await lifecycle.settleRows(
          trx,
          await listAttempts(trx, user.id, quiz.id, { lock: isPostgres }),
          now,
        )
        const live = attempts.find((attempt) => lifecycle.isLive(attempt, now))
        if (!live && !isQuizActive(quiz, now)) return quizNotActive()

        // A retry of a submission that already went through answers the same result (the web app sends attempt_id).
        if (body.attempt_id != null) {
          const named = attempts.find((attempt) => attempt.id === body.attempt_id)
          if (!named) return new NotFound('Attempt not found.')
          if (named.status === 'finished') {
            return invalidAnswers(await papers.paperFor(trx, named.revision_ids)) ?? toSubmitResult(named)
          }
        }

        if (live) {
          const paper = await papers.paperFor(trx, live.revision_ids)
          const invalid = invalidAnswers(paper)
          if (invalid) return invalid
          // Up to deadline plus grace the submission counts: submitted answers are merged over the saved ones.
          const answers = await listAnswers(trx, live.id)
          // The web app has autosaved nearly every answer it submits: only what differs is written again.
          const changed = entries.filter(
            ([questionId, optionId]) => answers.get(questionId) !== optionId || !answers.has(questionId),
          )
          for (const [questionId, optionId] of changed) answers.set(questionId, optionId)
          await upsertAnswers(trx, live.id, changed, now)
          // The attempt rows are locked (FOR UPDATE on PostgreSQL) since listAttempts: the cap's total is stable.
          if (withState) await storeExamState(trx, live, body, now)
          const { total_questions: _total, ...score } = scoreAnswers(paper.questions, answers)
          const fields = { ...score, finished_at: now, late: 0, submitted: 1 }
          if (!(await markAttemptFinished(trx, live.id, fields)))
            throw new Error(`attempt ${live.id} was finished twice`)
          await recordFinish(trx, live, paper, answers, score.score_hundredths, now)
          finished = true
          return toSubmitResult({ ...live, ...fields, status: 'finished' })
        }

        // The latest attempt ran out of time unsubmitted: this is its late submission, scored on saved answers.
        const latest = attempts.at(-1)
        if (
          latest &&
          latest.late === 1 &&
          latest.submitted === 0 &&
          now - latest.deadline <= LATE_SUBMISSION_WINDOW_MS
        ) {
          return invalidAnswers(await papers.paperFor(trx, latest.revision_ids)) ?? toSubmitResult(latest)
        }

        // No attempt in progress: start one and finish it at once, if the learner may.
        if (quiz.is_paid_tier === 1 && !(await hasPaidAccess(trx, user.id, now))) return paidAccessRequired()
        if (attempts.length >= quiz.allowed_attempts) return noAttemptsLeft()
        const drawn = await drawPaper(trx, quiz)
        const paper = await papers.paperFor(trx, drawn.revision_ids, drawn.option_order)
        const invalid = invalidAnswers(paper)
        if (invalid) return invalid
        const { total_questions: _total, ...score } = scoreAnswers(paper.questions, new Map(entries))
        const attempt = await insertAttempt(trx, {
          ...(await attemptBegun(trx, user.id, quiz, attempts.length + 1, now)),
          status: 'finished',
          ...drawn,
          finished_at: now,
          ...score,
          late: 0,
          submitted: 1,
        })
        await upsertAnswers(trx, attempt.id, entries, now)
        if (withState) await storeExamState(trx, attempt, body, now)
        await recordFinish(trx, attempt, paper, new Map(entries), score.score_hundredths, now)
        finished = true
        return toSubmitResult(attempt)
      }),
    )
    if (outcome instanceof AppError) throw outcome
    if (finished) metrics.attemptSubmitted()
    return outcome
  }

  return { listQuizzes, startAttempt, getQuestion, saveAnswers, submitAttempt }
}

export type QuizService = ReturnType<typeof createQuizService>

const timeIsUp = () => new Conflict('The time for this attempt is over; answers can no longer be saved.')
const alreadySubmitted = () => new Conflict('This attempt has been submitted; answers can no longer be saved.')
