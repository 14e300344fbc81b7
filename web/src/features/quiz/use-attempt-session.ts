import type { QuizAttempt } from '@quiz/contracts'
import { liveMessages } from '@quiz/contracts/rules/live'
import { useEffect, useRef, useState } from 'react'
import { ApiError } from '../../api/api-error'
import { AnswerQueue, answerStorageKey, removeStaleAnswerEntries } from './answer-queue'
import { clockKeyPrefix } from './attempt-clock'
import { openAttempt } from './open-attempt'
import { isTransientError, saveAnswers, startOrResumeAttempt } from './quiz.api'

/** Starting or resuming is safe to repeat (a second call resumes the same attempt), so a dropped connection is retried. */
const LOAD_RETRY_DELAYS_MS = [1000, 3000]

export type LoadErrorKey =
  | 'errors.load_failed'
  | 'errors.no_attempts'
  | 'errors.paid_only'
  | 'errors.offline_not_kept'
  | 'errors.live_not_started'
  | 'errors.live_join_closed'
  | 'errors.practice_not_open'

export type AttemptSession =
  | { state: 'loading' }
  | { state: 'error'; message: LoadErrorKey }
  /** `fromDevice`: the attempt is this device's copy (open-attempt.ts), older than what its queues hold. */
  | { state: 'ready'; session: QuizAttempt; queue: AnswerQueue; fromDevice: boolean }

function loadErrorMessage(error: unknown): LoadErrorKey {
  if (error instanceof ApiError && error.status === 403) {
    if (error.code === 'no_attempts_left') return 'errors.no_attempts'
    if (error.code === 'paid_access_required') return 'errors.paid_only'
    if (error.code === 'live_not_started') return 'errors.live_not_started'
  }
  // A live mock between its join window and its common end (API.md "Live mocks").
  if (error instanceof ApiError && error.status === 409 && error.detail === liveMessages.joinClosed) {
    return 'errors.live_join_closed'
  }
  // After the common end while a learner with extra time still sits: a practice score would tell the key.
  if (error instanceof ApiError && error.status === 409 && error.code === 'practice_not_open') {
    return 'errors.practice_not_open'
  }
  if (isTransientError(error) && !navigator.onLine) return 'errors.offline_not_kept'
  return 'errors.load_failed'
}

/**
 * The learner's attempt at a quiz and the queue that saves its answers. GET /api/quizzes/{id}/ starts or resumes
 * the attempt: called once per quiz, outside any cache, or the device's copy is opened (open-attempt.ts).
 * `onDeadlinePassed`: the server refused a save because the attempt's time is over (409).
 */
export function useAttemptSession(quizId: number | null, userId: number, onDeadlinePassed: () => void): AttemptSession {
  const [loaded, setLoaded] = useState<AttemptSession>({ state: 'loading' })
  // The promise lives in a ref so StrictMode's second effect run (and a re-render) subscribes to it instead of
  // calling again; the queue too, so it is made once per attempt.
  const started = useRef<{ quizId: number; promise: ReturnType<typeof openAttempt> } | null>(null)
  const queueRef = useRef<{ attemptId: number; queue: AnswerQueue } | null>(null)
  const deadlinePassed = useRef(onDeadlinePassed)
  useEffect(() => {
    deadlinePassed.current = onDeadlinePassed
  })

  useEffect(() => {
    if (quizId === null) return
    if (started.current?.quizId !== quizId) {
      started.current = {
        quizId,
        promise: openAttempt(quizId, {
          userId,
          fetchSession: () => startOrResumeAttempt(quizId),
          retryDelaysMs: LOAD_RETRY_DELAYS_MS,
        }),
      }
    }
    let active = true
    started.current.promise.then(
      ({ session, fromDevice }) => {
        if (!active) return
        if (queueRef.current?.attemptId !== session.attempt.id) {
          removeStaleAnswerEntries(quizId, session.attempt.id)
          removeStaleAnswerEntries(quizId, session.attempt.id, localStorage, clockKeyPrefix)
          const queue = new AnswerQueue({
            storageKey: answerStorageKey(quizId, session.attempt.id),
            send: (batch, signal) => saveAnswers(quizId, batch, signal),
            isTransient: isTransientError,
            onFailure: (error) => {
              // 409: the deadline passed on the server (a phone that slept keeps a monotonic clock paused).
              if (error instanceof ApiError && error.status === 409) deadlinePassed.current()
            },
          })
          // Marks and visits come back too, so a reload or a second device shows the same palette. The device's
          // copy of the attempt is older than the queue's own entry, which is then the newest there is.
          if (!fromDevice || !queue.restored) queue.mergeServerState(session.attempt)
          queueRef.current = { attemptId: session.attempt.id, queue }
        }
        setLoaded({ state: 'ready', session, queue: queueRef.current.queue, fromDevice })
      },
      (error: unknown) => {
        if (active) setLoaded({ state: 'error', message: loadErrorMessage(error) })
      },
    )
    return () => {
      active = false
    }
  }, [quizId, userId])

  return quizId === null ? { state: 'error', message: 'errors.load_failed' } : loaded
}
