import { clockStorageKey, readAnchor, remainingAt, removeAnchor, writeAnchor } from './attempt-clock'
import { loadAttempt, saveAttempt, saveQuestions } from './attempt-store'
import { forgetLivePaper, openLivePaper } from '../../api/live-paper'
import type { QuizAttempt } from '@quiz/contracts'
import { isTransientError, withRetry } from './quiz.api'
import { AUTO_SUBMIT_AT_SECONDS } from './use-countdown'

export interface OpenedAttempt {
  session: QuizAttempt
  /** Read from the device (offline, or the server did not answer): the queue's own copy of the answers is newest. */
  fromDevice: boolean
}

interface OpenOptions {
  userId: number
  /** GET /api/quizzes/{id}/: starts or resumes the attempt. */
  fetchSession: () => Promise<QuizAttempt>
  /** Waits between tries when nothing is on the device to fall back on. */
  retryDelaysMs: readonly number[]
  isOnline?: () => boolean
  /** Wall clock, epoch ms. */
  now?: () => number
  storage?: Storage
}

/**
 * Opens the learner's attempt at a quiz (decision 019). The server is asked first, and what it says is kept on the
 * device: the attempt, and the countdown's anchor (its remaining seconds and the wall-clock time they came). The
 * device's copy is used instead when the browser is offline, when the server does not answer, and when the
 * device's countdown has already run out: asking then would finish that attempt on the answers the server holds
 * and start the next one, while the page must hand this one in with the answers queued here.
 */
export async function openAttempt(
  quizId: number,
  { userId, fetchSession, retryDelaysMs, isOnline = () => navigator.onLine, now = Date.now, storage }: OpenOptions,
): Promise<OpenedAttempt> {
  const stored = await loadAttempt(userId, quizId).catch(() => undefined)
  const anchor = stored && readAnchor(clockStorageKey(quizId, stored.session.attempt.id), storage)
  const onDevice: OpenedAttempt | null =
    stored && anchor
      ? {
          session: {
            ...stored.session,
            attempt: { ...stored.session.attempt, remaining_seconds: remainingAt(anchor, now()) },
          },
          fromDevice: true,
        }
      : null
  if (onDevice && (!isOnline() || onDevice.session.attempt.remaining_seconds <= AUTO_SUBMIT_AT_SECONDS)) {
    return onDevice
  }

  let session: QuizAttempt
  try {
    // With a copy here, one try: a learner on a dead connection gets the exam back at once, not after the retries.
    session = await withRetry(fetchSession, onDevice ? [] : retryDelaysMs)
  } catch (error) {
    if (onDevice && isTransientError(error)) return onDevice
    throw error
  }
  const attemptId = session.attempt.id
  if (stored && stored.session.attempt.id !== attemptId) {
    removeAnchor(clockStorageKey(quizId, stored.session.attempt.id), storage)
  }
  writeAnchor(clockStorageKey(quizId, attemptId), { remaining: session.attempt.remaining_seconds, at: now() }, storage)
  // IndexedDB refused (a private window, a full disk): the exam still works online, as before.
  await saveAttempt(userId, quizId, session, now()).catch(() => undefined)
  await unpackPaperAhead(userId, session).catch(() => undefined)
  return { session, fromDevice: false }
}

/** A live mock's paper fetched ahead becomes the attempt's kept questions: none is fetched (docs/decisions/069). */
async function unpackPaperAhead(userId: number, session: QuizAttempt) {
  const questions = await openLivePaper(userId, session)
  if (!questions) return
  await saveQuestions(session.attempt.id, questions)
  await forgetLivePaper(userId, session.id)
}
