// The clock of a live mock (API.md "Live mocks"): pure rules, shared by starts, submits, the list and the leaderboard.
import { liveMessages } from '@quiz/contracts'
import { Conflict, PermissionDenied } from '../http/errors'

const MINUTE = 60_000
export const DAY = 24 * 60 * MINUTE

export interface LiveColumns {
  live_starts_at: number | null
  live_join_minutes: number | null
  duration_minutes: number
}

export interface LiveTimes {
  startsAt: number
  joinEndsAt: number
  endsAt: number
}

export function liveTimes(quiz: LiveColumns): LiveTimes | null {
  if (quiz.live_starts_at === null || quiz.live_join_minutes === null) return null
  const startsAt = quiz.live_starts_at
  return {
    startsAt,
    joinEndsAt: startsAt + quiz.live_join_minutes * MINUTE,
    endsAt: startsAt + quiz.duration_minutes * MINUTE,
  }
}

/** before; joining in [starts_at, starts_at + join_minutes); closed until the common end; after. */
export type LivePhase = 'before' | 'joining' | 'closed' | 'after'

export function livePhase(times: LiveTimes, now: number): LivePhase {
  if (now < times.startsAt) return 'before'
  if (now >= times.endsAt) return 'after'
  return now < times.joinEndsAt ? 'joining' : 'closed'
}

/** When the key of a live quiz can no longer be challenged: `challenge_days` after its common end. */
export const challengeWindowClosesAt = (times: LiveTimes, challengeDays: number) => times.endsAt + challengeDays * DAY

/** The common end stretched by extra time (600 ms per percent-minute), never past the quiz's end. */
export const rankedDeadline = (
  times: LiveTimes,
  quiz: LiveColumns & { end_time: number | null },
  extraTimePercent: number,
) =>
  Math.min(
    times.startsAt + quiz.duration_minutes * (MINUTE + 600 * extraTimePercent),
    quiz.end_time ?? Number.POSITIVE_INFINITY,
  )

export const liveNotStarted = () => new PermissionDenied(liveMessages.notStarted, 'live_not_started')
export const joinClosed = () => new Conflict(liveMessages.joinClosed)
export const alreadyStartedLive = () => new Conflict(liveMessages.alreadyStarted)
// A practice attempt's score would tell the key to a learner while another still sits (issue 54).
export const practiceNotOpen = () => new Conflict(liveMessages.practiceNotOpen, 'practice_not_open')
