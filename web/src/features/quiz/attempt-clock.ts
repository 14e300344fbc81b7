/**
 * The countdown's anchor across reloads (decision 019). While the page lives, the countdown runs on the monotonic
 * clock (use-countdown.ts); a reload restarts that clock, and offline there is no server to ask. So the page keeps
 * "this many seconds were left at this wall-clock moment", written as the countdown runs, and a reload without
 * the server continues from it less the wall-clock time passed since. A phone clock moved back makes the time
 * passed negative: it counts as none, so the countdown resumes where it stood and never grows. (A clock moved
 * forward shortens the exam on this device; the server's deadline, not this one, decides what counts.)
 */
export interface ClockAnchor {
  /** Seconds left (not rounded) ... */
  remaining: number
  /** ... at this wall-clock time, epoch ms. */
  at: number
}

export const clockKeyPrefix = 'quiz-clock'

export function clockStorageKey(quizId: number, attemptId: number) {
  return `${clockKeyPrefix}:${quizId}:${attemptId}`
}

/** The seconds left now by the anchor: never more than the anchor held, whatever the clock did. */
export function remainingAt(anchor: ClockAnchor, now: number): number {
  return Math.max(0, anchor.remaining - Math.max(0, now - anchor.at) / 1000)
}

function isAnchor(value: unknown): value is ClockAnchor {
  const anchor = value as ClockAnchor | null
  return (
    typeof anchor === 'object' &&
    anchor !== null &&
    Number.isFinite(anchor.remaining) &&
    Number.isFinite(anchor.at) &&
    anchor.remaining >= 0
  )
}

export function readAnchor(key: string, storage: Storage = localStorage): ClockAnchor | null {
  try {
    const raw = storage.getItem(key)
    const parsed: unknown = raw ? JSON.parse(raw) : null
    return isAnchor(parsed) ? parsed : null
  } catch {
    return null
  }
}

/**
 * Records the seconds left at `at`: the server's figure when it comes (it is the truth, and how a wrong phone clock
 * gets corrected), then the running countdown's, whose seconds only go down whatever the wall clock does (a clock
 * corrected mid-exam is then read consistently at the next reload).
 */
export function writeAnchor(key: string, anchor: ClockAnchor, storage: Storage = localStorage) {
  try {
    storage.setItem(key, JSON.stringify(anchor))
  } catch {
    // Storage full or disabled: a reload offline then has no countdown to continue (it waits for the server).
  }
}

export function removeAnchor(key: string, storage: Storage = localStorage) {
  try {
    storage.removeItem(key)
  } catch {
    // Nothing to remove.
  }
}
