import type { SubmitAttemptBody, SubmitResult } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { AppError, NotFound } from '../http/errors'
import { refusedAfterCommit } from '../http/refusals'
import type { TokenUser } from '../http/tokens'
import { withAnswerKeys, type Paper } from '../questions/question-papers'
import { placesOf, sectionClock, withoutClosedSections } from './section-clock'
import {
  LATE_SUBMISSION_WINDOW_MS,
  isQuizActive,
  nextAttemptNumber,
  onlineAttempts,
  quizNotActive,
} from './attempt-rules'
import { entryAnswer, listAnswers, type AnswerEntry } from './attempts.repository'
import type { AttemptServiceDeps } from './attempts.service'
import { answerEntries, hasExamState, invalidExamState, storeExamState } from './exam-state'
import { findExtraTimePercent, findScreenReader, findQuizById, type LearnerQuiz } from './learner-quizzes.repository'
import { hasPaidAccess } from '../accounts/paid-access.repository'
import { paidAccessRequired } from '../accounts/paid-access'
import { newAttemptRefusal } from './new-attempt'
import { toSubmitResult } from './submit-result'
import { liveNotStarted, livePhase, liveTimes, type LivePhase } from './live-window.service'
import { createKeyWithholding } from './withheld-keys.service'

interface Submission {
  user: TokenUser
  quiz: LearnerQuiz
  body: SubmitAttemptBody
  entries: readonly AnswerEntry[]
  now: number
  isLiveMock: boolean
  phase: LivePhase | null
}

/**
 * A submit's answer, whether this request finished an attempt (not when it answered one finished before), and whether
 * its paper has written questions (only those have pages whose upload window can still be open).
 */
interface Outcome {
  result: SubmitResult
  finished: boolean
  written: boolean
}

const hasWritten = (paper: Paper) => paper.questions.some((question) => question.type === 'written')

export function createSubmitService({ database, clock, metrics, papers, lifecycle, newAttempts }: AttemptServiceDeps) {
  const { db } = database
  const withholding = createKeyWithholding({ graceMs: lifecycle.graceMs })

  async function submitAttempt(user: TokenUser, quizId: number, body: SubmitAttemptBody): Promise<SubmitResult> {
    const now = clock.now()
    const quiz = await findQuizById(db, quizId)
    if (!quiz) throw quizNotActive()
    const times = liveTimes(quiz)
    const submission: Submission = {
      user,
      quiz,
      body,
      entries: answerEntries(body.answers),
      now,
      isLiveMock: times !== null,
      phase: times && livePhase(times, now),
    }
    const outcome = await refusedAfterCommit(
      lifecycle.attemptTransaction(async (trx): Promise<Outcome | AppError> => {
        const attempts = await lifecycle.settledAttempts(trx, user.id, quiz.id, now)
        const live = attempts.find((attempt) => lifecycle.isLive(attempt, now))
        if (!live && submission.phase === 'before') return liveNotStarted()
        if (!live && !isQuizActive(quiz, now)) return quizNotActive()
        // A retry of a submission that already went through answers the same result (the web app sends attempt_id).
        if (body.attempt_id != null) {
          // A paper attempt was never submitted here: naming one is naming no submission.
          const named = attempts.find((attempt) => attempt.id === body.attempt_id && attempt.mode === 'online')
          if (!named) return new NotFound('Attempt not found.')
          if (named.status === 'finished') return answerFinished(trx, named, submission)
        }
        if (live) return submitInProgress(trx, live, submission)
        const late = lateSubmissionOf(attempts, now)
        if (late) return answerFinished(trx, late, submission)
        return startAndFinish(trx, attempts, submission)
      }),
    )
    if (outcome.finished) metrics.attemptSubmitted()
    // No sections while the key is withheld (a one-question section tells it) or pages still taken (decision 090).
    if (times && (await withholding.isLiveKeyWithheld(db, quiz, now))) return { ...outcome.result, sections: [] }
    // A paper without written questions has no pages to wait for: no statement after every submit.
    if (
      outcome.written &&
      outcome.result.sections.length > 0 &&
      (await withholding.uploadsOpen(db, outcome.result.attempt_id, now))
    )
      return { ...outcome.result, sections: [] }
    return outcome.result
  }

  /** An attempt finished before (a retried submit, a late submission): its result, the body checked as any. */
  async function answerFinished(trx: Kysely<DB>, attempt: AttemptRow, { body, quiz }: Submission) {
    const paper = await withAnswerKeys(
      trx,
      await papers.paperFor(trx, attempt.revision_ids, undefined, quiz.passages_version),
    )
    return (
      invalidExamState(paper, body) ?? {
        result: await toSubmitResult(trx, attempt, paper),
        finished: false,
        written: hasWritten(paper),
      }
    )
  }

  // A live mock's ranked attempt takes no answers after its deadline: others may have passed the key on (decision 042).
  async function submitInProgress(trx: Kysely<DB>, live: AttemptRow, submission: Submission) {
    const { body, entries, now } = submission
    const paper = await lifecycle.lockedPaper(trx, live, submission.quiz.passages_version)
    const invalid = invalidExamState(paper, body)
    if (invalid) return invalid
    const late = submission.isLiveMock && live.ranked === 1 && now > live.deadline
    const open = late ? NOTHING_SUBMITTED : withoutClosedSections(sectionClock(live, now), placesOf(paper), body).body
    const openEntries = open === body ? entries : answerEntries(open.answers ?? {})
    const answers = await listAnswers(trx, live.id)
    // The web app has autosaved nearly every answer it submits: only what differs is written again.
    const changed = openEntries.filter(
      (entry) => entry.length === 3 || answers.get(entry[0]) !== entry[1] || !answers.has(entry[0]),
    )
    for (const entry of changed) answers.set(entry[0], entryAnswer(entry))
    // The attempt rows are locked (FOR UPDATE on PostgreSQL) since settledAttempts: the cap's total is stable.
    if (hasExamState(body)) await storeExamState(trx, live, open, now)
    const finished = await lifecycle.finish(
      trx,
      { inProgress: live },
      { answers, write: changed, finishedAt: now, late, submitted: true, paper },
    )
    return {
      result: await toSubmitResult(trx, finished.attempt, paper, answers),
      finished: true,
      written: hasWritten(paper),
    }
  }

  async function startAndFinish(trx: Kysely<DB>, attempts: readonly AttemptRow[], submission: Submission) {
    const { user, quiz, body, entries, now } = submission
    if (quiz.is_paid_tier === 1 && !(await hasPaidAccess(trx, user.id, now))) return paidAccessRequired()
    const refusal =
      newAttemptRefusal(submission.phase, quiz, attempts) ??
      (await withholding.practiceRefusal(trx, quiz, submission.phase, now))
    if (refusal) return refusal
    const extraTimePercent = await findExtraTimePercent(trx, user.id)
    const screenReader = await findScreenReader(trx, user.id)
    const begun = await newAttempts.begin(
      trx,
      user.id,
      quiz,
      nextAttemptNumber(attempts),
      now,
      extraTimePercent,
      screenReader,
    )
    const paper = await lifecycle.lockedPaper(trx, begun, quiz.passages_version)
    const invalid = invalidExamState(paper, body)
    if (invalid) return invalid
    const answers = new Map(entries.map((entry) => [entry[0], entryAnswer(entry)] as const))
    const finished = await lifecycle.finish(
      trx,
      { begun },
      { answers, write: entries, finishedAt: now, late: false, submitted: true, paper },
    )
    if (hasExamState(body)) await storeExamState(trx, finished.attempt, body, now)
    return {
      result: await toSubmitResult(trx, finished.attempt, paper, answers),
      finished: true,
      written: hasWritten(paper),
    }
  }

  return { submitAttempt }
}

export type SubmitService = ReturnType<typeof createSubmitService>

const NOTHING_SUBMITTED: SubmitAttemptBody = { answers: {} }

/** A paper attempt recorded since does not stand in the way of a late submission. */
function lateSubmissionOf(attempts: readonly AttemptRow[], now: number) {
  const latest = onlineAttempts(attempts).at(-1)
  return latest && latest.late === 1 && latest.submitted === 0 && now - latest.deadline <= LATE_SUBMISSION_WINDOW_MS
    ? latest
    : undefined
}
