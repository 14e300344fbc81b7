import type { SubmitAttemptBody, SubmitResult } from '@quiz/contracts'
import type { AppContext } from '../context'
import { AppError, NotFound } from '../http/errors'
import type { TokenUser } from '../http/tokens'
import type { Paper, QuestionPapers } from '../questions/question-papers'
import { retryAfterKeyDecisions } from '../questions/key-locks'
import { withAnswerKeys } from '../questions/question-papers'
import { scoreAnswers } from '../questions/scoring'
import { attemptSections } from '../questions/sections'
import { placesOf, sectionClock, withoutClosedSections } from './section-clock'
import {
  LATE_SUBMISSION_WINDOW_MS,
  isQuizActive,
  noAttemptsLeft,
  paidAccessRequired,
  quizNotActive,
} from './attempt-rules'
import { insertAttempt, listAnswers, listAttempts, markAttemptFinished, upsertAnswers } from './attempts.repository'
import { recordFinish, retryOnUniqueViolation, toSubmitResult, type AttemptLifecycle } from './attempts.service'
import { answerEntries, hasExamState, invalidExamState, storeExamState } from './exam-state'
import { findExtraTimePercent, findQuizById, hasPaidAccess, lockLearner } from './learner-quizzes.repository'
import { newLiveAttemptRefusal, type NewAttempts } from './new-attempt'
import { liveNotStarted, livePhase, liveTimes } from '../live/live-window.service'

/**
 * Submitting: scoring the attempt in progress (up to its deadline plus grace), answering a retry of one already
 * finished with the same result, a late submission of one whose time ran out, or creating and finishing an attempt
 * at once when none is in progress.
 */
export function createSubmitService({
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

  async function submitAttempt(user: TokenUser, quizId: number, body: SubmitAttemptBody): Promise<SubmitResult> {
    const now = clock.now()
    const quiz = await findQuizById(db, quizId)
    if (!quiz) throw quizNotActive()
    const times = liveTimes(quiz)
    const phase = times && livePhase(times, now)
    const entries = answerEntries(body.answers)
    const withState = hasExamState(body)
    const invalidAnswers = (paper: Paper) => invalidExamState(paper, body)
    // Set when this request finished an attempt (not when it answered a retry of one already finished).
    let finished = false

    // Finishing reads its keys locked (questions/key-locks.ts): a key decision in the way means one more run.
    const outcome = await retryOnUniqueViolation(() =>
      retryAfterKeyDecisions(database, () =>
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
          if (!live && phase === 'before') return liveNotStarted()
          if (!live && !isQuizActive(quiz, now)) return quizNotActive()

          // A retry of a submission that already went through answers the same result (the web app sends attempt_id).
          if (body.attempt_id != null) {
            const named = attempts.find((attempt) => attempt.id === body.attempt_id)
            if (!named) return new NotFound('Attempt not found.')
            if (named.status === 'finished') {
              const paper = await withAnswerKeys(trx, await papers.paperFor(trx, named.revision_ids))
              return invalidAnswers(paper) ?? (await toSubmitResult(trx, named, paper))
            }
          }

          if (live) {
            const paper = await withAnswerKeys(trx, await papers.paperFor(trx, live.revision_ids), { lock: isPostgres })
            const invalid = invalidAnswers(paper)
            if (invalid) return invalid
            // Up to deadline plus grace the submission counts: submitted answers are merged over the saved ones,
            // except those to timed sections already closed (or not open), which are dropped (API.md "Papers").
            // A live mock's ranked attempt takes none after its deadline: others have submitted by then and may
            // have passed the key on (docs/decisions/042), so its grace scores the saved answers, as a late one.
            const late = times !== null && live.ranked === 1 && now > live.deadline
            const open = late
              ? NOTHING_SUBMITTED
              : withoutClosedSections(sectionClock(live, now), placesOf(paper), body).body
            const openEntries = open === body ? entries : answerEntries(open.answers ?? {})
            const answers = await listAnswers(trx, live.id)
            // The web app has autosaved nearly every answer it submits: only what differs is written again.
            const changed = openEntries.filter(
              ([questionId, optionId]) => answers.get(questionId) !== optionId || !answers.has(questionId),
            )
            for (const [questionId, optionId] of changed) answers.set(questionId, optionId)
            await upsertAnswers(trx, live.id, changed, now)
            // The attempt rows are locked (FOR UPDATE on PostgreSQL) since listAttempts: the cap's total is stable.
            if (withState) await storeExamState(trx, live, open, now)
            const { total_questions: _total, ...score } = scoreAnswers(
              paper.questions,
              answers,
              attemptSections(live.sections, paper.questions.length),
            )
            const fields = { ...score, finished_at: now, late: late ? 1 : 0, submitted: 1 }
            if (!(await markAttemptFinished(trx, live.id, fields)))
              throw new Error(`attempt ${live.id} was finished twice`)
            await recordFinish(trx, live, paper, answers, score.score_hundredths, now)
            finished = true
            return toSubmitResult(trx, { ...live, ...fields, status: 'finished' }, paper, answers)
          }

          // The latest attempt ran out of time unsubmitted: this is its late submission, scored on saved answers.
          const latest = attempts.at(-1)
          if (
            latest &&
            latest.late === 1 &&
            latest.submitted === 0 &&
            now - latest.deadline <= LATE_SUBMISSION_WINDOW_MS
          ) {
            const paper = await withAnswerKeys(trx, await papers.paperFor(trx, latest.revision_ids))
            return invalidAnswers(paper) ?? (await toSubmitResult(trx, latest, paper))
          }

          // No attempt in progress: start one and finish it at once, if the learner may.
          if (quiz.is_paid_tier === 1 && !(await hasPaidAccess(trx, user.id, now))) return paidAccessRequired()
          const liveRefusal = newLiveAttemptRefusal(phase, attempts)
          if (liveRefusal) return liveRefusal
          if (attempts.length >= quiz.allowed_attempts) return noAttemptsLeft()
          const extraTimePercent = await findExtraTimePercent(trx, user.id)
          const drawn = await drawPaper(trx, quiz, user.id, now, extraTimePercent)
          const paper = await withAnswerKeys(trx, await papers.paperFor(trx, drawn.revision_ids, drawn.option_order), {
            lock: isPostgres,
          })
          const invalid = invalidAnswers(paper)
          if (invalid) return invalid
          const { total_questions: _total, ...score } = scoreAnswers(
            paper.questions,
            new Map(entries),
            attemptSections(drawn.sections, paper.questions.length),
          )
          const attempt = await insertAttempt(trx, {
            ...attemptBegun(user.id, quiz, attempts.length + 1, now, extraTimePercent),
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
          return toSubmitResult(trx, attempt, paper, new Map(entries))
        }),
      ),
    )
    if (outcome instanceof AppError) throw outcome
    if (finished) metrics.attemptSubmitted()
    return outcome
  }

  return { submitAttempt }
}

export type SubmitService = ReturnType<typeof createSubmitService>

const NOTHING_SUBMITTED: SubmitAttemptBody = { answers: {} }
