import { useEffect, useRef } from 'react'
import { useAnswerSaving } from './use-answer-saving'
import { useAttemptSession } from './use-attempt-session'
import { useExamClock } from './use-exam-clock'
import { useSubmitAttempt } from './use-submit-attempt'
import { useWrittenHandIn, useWrittenQueue } from './written/use-written-queue'

/**
 * The attempt and what hands it in: its answers saved as they are given, its written answers, the submission and
 * the clock that submits when the time is over.
 */
export function useExamAttempt(quizId: number | null, userId: number, beforeSubmit: () => void) {
  // The server's "time is over" (a 409 on a save) hands in through the submission, and the hand-in stops the
  // clock: both are made after the attempt, so these reach them through refs set once they exist.
  const deadlinePassed = useRef(() => undefined as void)
  const stopClock = useRef(() => undefined as void)
  const attempt = useAttemptSession(quizId, userId, () => deadlinePassed.current())
  const session = attempt.state === 'ready' ? attempt.session : null
  const queue = attempt.state === 'ready' ? attempt.queue : null
  const snapshot = useAnswerSaving(queue)
  const written = useWrittenQueue(
    session?.attempt.id ?? null,
    attempt.state === 'ready' ? { saved: attempt.session.attempt.written, fromDevice: attempt.fromDevice } : undefined,
  )
  const exam = useSubmitAttempt({
    quizId: quizId ?? 0,
    userId,
    attemptId: session?.attempt.id ?? null,
    queue,
    written: written.queue,
    beforeSubmit,
    onSubmitted: () => stopClock.current(),
  })
  const { submit, outcome } = exam
  useWrittenHandIn(written.queue, written.snapshot, outcome !== null)
  const clock = useExamClock(quizId ?? 0, session?.attempt ?? null, outcome === null, () => submit(true))
  useEffect(() => {
    deadlinePassed.current = () => submit(true)
    stopClock.current = clock.stop
  }, [clock.stop, submit])
  return { attempt, session, queue, snapshot, written, exam, clock }
}
