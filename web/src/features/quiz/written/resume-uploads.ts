import { makeWrittenQueue } from './use-written-queue'
import { writtenAttemptsHandedIn } from './handed-in'

/**
 * After a reload: photos of attempts already handed in are sent until they arrive or the upload grace is over
 * (the exam screen of such an attempt is never opened again). Loaded only when there are some.
 */
export function resumeUploads(storage: Storage = localStorage) {
  for (const attemptId of writtenAttemptsHandedIn(storage)) makeWrittenQueue(attemptId).finishInBackground()
}
