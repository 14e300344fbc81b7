import type { Difficulty, QuizAttempt, QuizQuestion, SaveAnswersBody, SaveAnswersResult } from '@quiz/contracts'
import type { AppContext } from '../context'
import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { isUniqueViolation } from '../db/errors'
import { AppError, Conflict, NotFound } from '../http/errors'
import type { TokenUser } from '../http/tokens'
import { toIso } from '../lib/clock'
import type { QuestionPapers } from '../questions/question-papers'
import { retryAfterKeyDecisions } from '../questions/key-locks'
import {
  alreadySubmitted,
  isQuizActive,
  noAttemptInProgress,
  questionsClosed,
  noAttemptsLeft,
  paidAccessRequired,
  quizNotActive,
  sectionNotOpen,
  timeIsUp,
} from './attempt-rules'
import {
  findLatestAttempt,
  insertAttempt,
  isAttemptInProgress,
  isAttemptInProgressLocked,
  listAnswers,
  listAttempts,
  listQuestionStates,
  moveToSection,
  upsertAnswerIfInProgress,
  upsertAnswers,
} from './attempts.repository'
import { retryOnUniqueViolation, type AttemptLifecycle } from './attempts.service'
import { answerEntries, hasExamState, invalidExamState, storeExamState, toExamState } from './exam-state'
import { isOpen, placesOf, sectionAt, sectionClock, toAttemptSections, withoutClosedSections } from './section-clock'
import {
  findAttemptsWithExtraTime,
  findQuizById,
  findQuizWithAttemptInProgress,
  hasPaidAccess,
  lockLearner,
  type LearnerQuizRow,
} from './learner-quizzes.repository'
import { newLiveAttemptRefusal, type NewAttempts } from './new-attempt'
import { liveNotStarted, livePhase, liveTimes } from '../live/live-window.service'

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

/** An attempt while it runs: starting or resuming it, reading its questions, saving its answers. */
export function createAttemptSessionService({
  database,
  clock,
  metrics,
  papers,
  lifecycle,
  newAttempts,
}: Pick<AppContext, 'database' | 'clock' | 'metrics'> & {
  papers: QuestionPapers
  lifecycle: AttemptLifecycle
  newAttempts: NewAttempts
}) {
  const { db } = database
  const { isPostgres } = lifecycle
  const { drawPaper, attemptBegun } = newAttempts

  /** Starts the learner's attempt, or resumes the one in progress (the same attempt on every call). */
  async function startAttempt(user: TokenUser, quizId: number): Promise<QuizAttempt> {
    const now = clock.now()
    const quiz = await findQuizById(db, quizId)
    if (!quiz) throw quizNotActive()
    const { attempts, extraTimePercent } = await findAttemptsWithExtraTime(db, user.id, quiz.id)
    if (attempts.some((attempt) => lifecycle.isExpired(attempt, now))) await lifecycle.settleExpired(user.id, quiz.id)
    const live = attempts.find((attempt) => lifecycle.isLive(attempt, now))
    const times = liveTimes(quiz)
    const phase = times && livePhase(times, now)
    if (!live && phase === 'before') throw liveNotStarted()
    if (!live && !isQuizActive(quiz, now)) throw quizNotActive()
    if (quiz.is_paid_tier === 1 && !(await hasPaidAccess(db, user.id, now))) throw paidAccessRequired()
    if (live) {
      const [answers, states] = await Promise.all([listAnswers(db, live.id), listQuestionStates(db, live.id)])
      return toQuizAttempt(quiz, live, attempts.length, answers, states, now)
    }
    const liveRefusal = newLiveAttemptRefusal(phase, attempts)
    if (liveRefusal) throw liveRefusal
    if (attempts.length >= quiz.allowed_attempts) throw noAttemptsLeft()
    if (isPostgres && attempts.length === 0) {
      const first = await startFirstAttempt(user, quiz, extraTimePercent, now)
      if (first) return first
    }

    // Settling expired attempts finishes them on keys read locked (questions/key-locks.ts).
    const outcome = await retryOnUniqueViolation(() =>
      retryAfterKeyDecisions(database, () =>
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
          const refusal = newLiveAttemptRefusal(phase, current)
          if (refusal) return refusal
          if (current.length >= quiz.allowed_attempts) return noAttemptsLeft()
          const attempt = await insertNewAttempt(trx, user, quiz, current.length + 1, extraTimePercent, now)
          return {
            attempt,
            count: current.length + 1,
            answers: new Map<number, number | null>(),
            states: [],
            created: true,
          }
        }),
      ),
    )
    if (outcome instanceof AppError) throw outcome
    if (outcome.created) metrics.attemptStarted()
    return toQuizAttempt(quiz, outcome.attempt, outcome.count, outcome.answers, outcome.states, now)
  }

  async function insertNewAttempt(
    trx: Kysely<DB>,
    user: TokenUser,
    quiz: LearnerQuizRow,
    number: number,
    extraTimePercent: number,
    now: number,
  ) {
    const paper = await drawPaper(trx, quiz, user.id, now, extraTimePercent)
    const begun = attemptBegun(user.id, quiz, number, now, extraTimePercent)
    return insertAttempt(trx, {
      user_id: begun.user_id,
      quiz_id: begun.quiz_id,
      attempt_number: begun.attempt_number,
      started_at: begun.started_at,
      deadline: begun.deadline,
      ranked: begun.ranked,
      status: 'in_progress',
      revision_ids: paper.revision_ids,
      option_order: paper.option_order,
      sections: paper.sections,
      section_opened_at: paper.section_opened_at,
      finished_at: null,
      score_hundredths: null,
      correct: null,
      incorrect: null,
      unanswered: null,
    })
  }

  /**
   * PostgreSQL: a learner's first attempt at a quiz, inserted on its own, without the transaction and the learner's
   * row lock that a later one needs (to settle earlier attempts and count them under the lock): with no attempt
   * before it there is nothing to settle, and the unique (user, quiz, number) index lets one attempt 1 in. A start
   * that loses that race to another request (a second tab, a submit without a start) gets undefined and goes the
   * locked way, which finds the winner's attempt. A live mock's 5,000 starts in ten seconds are all first attempts:
   * this is three statements where the locked way is nine (docs/decisions/040).
   */
  async function startFirstAttempt(user: TokenUser, quiz: LearnerQuizRow, extraTimePercent: number, now: number) {
    let attempt: AttemptRow
    try {
      attempt = await insertNewAttempt(db, user, quiz, 1, extraTimePercent, now)
    } catch (error) {
      if (isUniqueViolation(error)) return undefined
      throw error
    }
    metrics.attemptStarted()
    return toQuizAttempt(quiz, attempt, 1, new Map(), [], now)
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
    const examState = toExamState(paper, states)
    return {
      ...toQuizSummary(quiz, attemptCount),
      question_count: paper.questions.length,
      questions: paper.questionRefs as { id: number }[],
      attempt: {
        id: attempt.id,
        started_at: toIso(attempt.started_at),
        deadline: toIso(attempt.deadline),
        remaining_seconds: Math.max(0, Math.floor((attempt.deadline - now) / 1000)),
        ranked: attempt.ranked === 1,
        answers: saved,
        // Named, not spread: a spread after other fields builds the object field by field into a new shape.
        marked: examState.marked,
        visited: examState.visited,
        time_spent: examState.time_spent,
        sections: toAttemptSections(sectionClock(attempt, now)),
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
            sections: row.sections ?? null,
            current_section: row.current_section ?? 0,
            section_opened_at: row.section_opened_at ?? null,
          }
        : undefined
    if (row.attempt_id !== null && !live) await lifecycle.settleExpired(user.id, quizId)
    if (!live && !isQuizActive(row, now)) throw quizNotActive()
    return live
  }

  async function getQuestion(user: TokenUser, quizId: number, number: number): Promise<QuizQuestion> {
    const now = clock.now()
    const live = await liveAttemptAt(user, quizId, now)
    if (!live) throw noAttemptInProgress()
    // The grace is for a submit on its way, not for reading on (docs/decisions/023).
    if (now > live.deadline) throw questionsClosed()
    const question = (await papers.paperFor(db, live.revision_ids, live.option_order)).questions[number - 1]
    if (!question) throw new NotFound('Question not found.')
    // A timed section's questions can be read only while it is open (API.md "Papers").
    const sections = sectionClock(live, now)
    if (!isOpen(sections, number - 1)) throw sectionNotOpen(sectionAt(sections, number - 1) < sections.current)
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
    const paper = await papers.paperFor(db, live.revision_ids)
    const invalid = invalidExamState(paper, body)
    if (invalid) throw invalid
    // What concerns closed or unopened timed sections is dropped, and said so; the rest is stored.
    const sections = sectionClock(live, now)
    const { body: open, dropped } = withoutClosedSections(sections, placesOf(paper), body)
    const result = await saveOpen(live, open, now)
    return sections.timed ? { ...result, dropped } : result
  }

  async function saveOpen(
    live: NonNullable<Awaited<ReturnType<typeof liveAttemptAt>>>,
    body: SaveAnswersBody,
    now: number,
  ): Promise<{ saved: number }> {
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

  /** `POST .../sections/next/`: closes the open timed section early; the next one's clock starts now. */
  async function nextSection(user: TokenUser, quizId: number) {
    const now = clock.now()
    const live = await liveAttemptAt(user, quizId, now)
    if (!live) throw noAttemptInProgress()
    if (now > live.deadline) throw timeIsUp()
    const sections = sectionClock(live, now)
    if (!sections.timed) throw new Conflict('This paper has no timed sections.')
    if (sections.current >= sections.sections.length - 1)
      throw new Conflict('This is the last section: submit the attempt to finish it.')
    const next = sections.current + 1
    const later = sections.sections.slice(next).reduce((sum, section) => sum + (section.limit_ms ?? 0), 0)
    const deadline = Math.min(now + later, live.deadline)
    const moved = await database.transaction((trx) =>
      moveToSection(trx, live.id, sections.current, next, now, deadline),
    )
    if (!moved) throw alreadySubmitted()
    const updated = { ...live, current_section: next, section_opened_at: now, deadline }
    return { sections: toAttemptSections(sectionClock(updated, now)) }
  }

  return { startAttempt, getQuestion, saveAnswers, nextSection }
}

export type AttemptSessionService = ReturnType<typeof createAttemptSessionService>
