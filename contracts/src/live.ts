// Live mocks (API.md "Live mocks", docs/decisions/038): one frozen paper for everyone at one time, a join window, a
// common end, and a leaderboard that is provisional until the key is settled.
import { z } from 'zod'

export const liveLimits = {
  /** Minutes after `starts_at` during which a learner may still start a ranked attempt. */
  joinMinutes: { min: 1, max: 180 },
  /** Entries of the leaderboard's `top`: those ranked this or better. */
  leaderboardTop: 20,
  /** Reminders before `starts_at`, in minutes: a day and a quarter of an hour. */
  reminderMinutes: [24 * 60, 15],
} as const

export { liveMessages } from './rules/live'

/** `upcoming` before `starts_at`, `running` until the common end, `provisional` until the key is settled, `final`. */
export const LeaderboardStatusSchema = z.enum(['upcoming', 'running', 'provisional', 'final'])
export type LeaderboardStatus = z.infer<typeof LeaderboardStatusSchema>

/** A live quiz as the learners' list shows it; `ends_at` is the common end (`starts_at + duration`). */
export const LiveInfoSchema = z.object({
  starts_at: z.string(),
  join_minutes: z.number().int(),
  join_ends_at: z.string(),
  ends_at: z.string(),
  status: LeaderboardStatusSchema,
})
export type LiveInfo = z.infer<typeof LiveInfoSchema>

export { LIVE_PAPER_AHEAD_MS } from './rules/live'

/**
 * `GET /api/quizzes/{id}/live-paper/`: the frozen paper as JSON (`LivePaperContent`), AES-256-GCM encrypted; `iv` and
 * `data` base64url, `data` the ciphertext with its 16-byte tag appended (as WebCrypto makes it). The key comes with the
 * start (`attempt.paper_key`), never before `starts_at`.
 */
export const LivePaperSchema = z.object({
  quiz_id: z.number().int(),
  cipher: z.literal('A256GCM'),
  iv: z.string(),
  data: z.string(),
})
export type LivePaper = z.infer<typeof LivePaperSchema>

/** A live schedule as an admin reads it (the admin quiz). */
export const LiveScheduleSchema = z.object({ starts_at: z.string(), join_minutes: z.number().int() })
export type LiveSchedule = z.infer<typeof LiveScheduleSchema>

/** `national_rank` only on a national mock's copy (docs/decisions/102): the rank across every institute taking part. */
const nationalRank = z.number().int().nullable().optional()
export const LeaderboardEntrySchema = z.object({
  rank: z.number().int(),
  name: z.string(),
  score: z.number(),
  national_rank: nationalRank,
})
export type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>

/** `GET /api/quizzes/{id}/leaderboard/`: ranks only from the common end on; `me` is null without a ranked attempt. */
export const LeaderboardSchema = z.object({
  status: LeaderboardStatusSchema,
  participants: z.number().int(),
  top: z.array(LeaderboardEntrySchema),
  me: z
    .object({ rank: z.number().int(), percentile: z.number(), score: z.number(), national_rank: nationalRank })
    .nullable(),
})
export type Leaderboard = z.infer<typeof LeaderboardSchema>
