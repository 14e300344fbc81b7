import { messages } from '@quiz/contracts'
import { Conflict, NotFound, PermissionDenied } from '../http/errors'

/** A late submission finds the attempt whose time ran out if that happened at most this long ago (API.md). */
export const LATE_SUBMISSION_WINDOW_MS = 60 * 60 * 1000

/** One more than the learner's highest number at the quiz, unique even when paper attempts came between. */
export const nextAttemptNumber = (attempts: readonly { attempt_number: number }[]) =>
  (attempts.at(-1)?.attempt_number ?? 0) + 1

/** The attempts the online limit (`allowed_attempts`) counts: a paper attempt never uses one up (API.md). */
export const onlineAttempts = <T extends { mode: string }>(attempts: readonly T[]) =>
  attempts.filter((attempt) => attempt.mode === 'online')

export const isQuizActive = (quiz: { start_time: number; end_time: number | null }, now: number) =>
  quiz.start_time <= now && (quiz.end_time === null || now < quiz.end_time)

export const noAttemptInProgress = () => new PermissionDenied('You have no attempt in progress for this quiz.')
export const questionsClosed = () =>
  new PermissionDenied('The time for this attempt is over; its questions are closed.')
// The codes let the exam screen wait for a section that its own clock opened a moment before the server's did.
export const sectionNotOpen = (closed: boolean) =>
  closed
    ? new PermissionDenied('This section is closed.', 'section_closed')
    : new PermissionDenied('This section is not open yet.', 'section_not_open')
export const noAttemptsLeft = () => new PermissionDenied(messages.noAttemptsLeft, 'no_attempts_left')
export const quizNotActive = () => new NotFound(messages.quizNotActive)
export const timeIsUp = () => new Conflict('The time for this attempt is over; answers can no longer be saved.')
export const alreadySubmitted = () => new Conflict('This attempt has been submitted; answers can no longer be saved.')
