import { liveLimits } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { isCountedAttempt } from './counted-attempt.repository'
import { precompile } from '../db/precompiled-query'
import { syncNationalEntries } from './national-entries.repository'

// A live mock's leaderboard snapshot (docs/decisions/063); below the top, ranks come from the rank tally.

/** API.md: `top` holds the entries ranked 20 or better. */
export const TOP_RANKS = liveLimits.leaderboardTop

export interface TopEntry {
  rank: number
  user_id: number
  score_hundredths: number
}

export interface Board {
  participants: number
  top: TopEntry[]
  /** The lowest score in `top` once it reaches rank 20; null while it holds fewer. */
  cutoff: number | null
}

export function listDueMockEnds(db: Kysely<DB>, now: number, graceMs: number, limit: number) {
  return db
    .selectFrom('quizzes as q')
    .leftJoin('leaderboard_snapshots as s', 's.quiz_id', 'q.id')
    .select(['q.id', 'q.live_starts_at', 's.starts_at as snapshot_starts_at', 's.due_at'])
    .where('q.deleted_at', 'is', null)
    .where('q.status', '=', 'published')
    .where('q.live_starts_at', 'is not', null)
    .where('q.live_join_minutes', 'is not', null)
    .where((eb) => eb(eb(eb('q.live_starts_at', '+', eb('q.duration_minutes', '*', 60_000)), '+', graceMs), '<', now))
    .where((eb) =>
      eb.or([
        eb('s.quiz_id', 'is', null),
        eb('s.starts_at', '<>', eb.ref('q.live_starts_at')),
        eb('s.due_at', '<=', now),
      ]),
    )
    .orderBy('q.id')
    .limit(limit)
    .execute()
}

/** False when another process ended this schedule of the mock first (its transaction holds the row until it commits). */
export async function claimMockEnd(trx: Kysely<DB>, quizId: number, startsAt: number, now: number) {
  const result = await trx
    .insertInto('leaderboard_snapshots')
    .values({ quiz_id: quizId, starts_at: startsAt, participants: 0, top: '[]', top_cutoff: null, taken_at: now })
    .onConflict((oc) =>
      oc
        .column('quiz_id')
        .doUpdateSet((eb) => ({
          starts_at: eb.ref('excluded.starts_at'),
          taken_at: eb.ref('excluded.taken_at'),
          due_at: null,
        }))
        .where('leaderboard_snapshots.starts_at', '<>', startsAt),
    )
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
}

/** A later pass over a mock whose extra time has run out: false when another process took it. */
export async function claimMockRecheck(trx: Kysely<DB>, quizId: number, dueAt: number) {
  const result = await trx
    .updateTable('leaderboard_snapshots')
    .set({ due_at: null })
    .where('quiz_id', '=', quizId)
    .where('due_at', '=', dueAt)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function computeBoard(db: Kysely<DB>, quizId: number): Promise<Board> {
  const tally = await db
    .selectFrom('first_attempt_scores')
    .select((eb) => eb.fn.sum<number | string | null>('learners').as('participants'))
    .where('quiz_id', '=', quizId)
    .executeTakeFirst()
  const counted = (atLeast?: number) =>
    db
      .selectFrom('attempts as a')
      .select(['a.user_id', 'a.score_hundredths'])
      .where('a.quiz_id', '=', quizId)
      .where('a.status', '=', 'finished')
      .where(isCountedAttempt('a'))
      .$if(atLeast !== undefined, (qb) => qb.where('a.score_hundredths', '>=', atLeast!))
      .orderBy('a.score_hundredths', 'desc')
      .orderBy('a.finished_at')
      .orderBy('a.id')
  let rows = await counted().limit(TOP_RANKS).execute()
  const full = rows.length === TOP_RANKS
  // Ties with the 20th are ranked 20 or better too.
  if (full) rows = await counted(rows.at(-1)!.score_hundredths ?? 0).execute()
  const top: TopEntry[] = []
  rows.forEach((row, index) => {
    const score = row.score_hundredths ?? 0
    // Sorted highest first: a score's rank is 1 + the number strictly above it, the index of its first occurrence.
    const rank = index > 0 && top[index - 1]!.score_hundredths === score ? top[index - 1]!.rank : index + 1
    top.push({ rank, user_id: row.user_id, score_hundredths: score })
  })
  return {
    participants: Number(tally?.participants ?? 0),
    top,
    cutoff: full ? top.at(-1)!.score_hundredths : null,
  }
}

export async function storeBoard(
  trx: Kysely<DB>,
  quizId: number,
  board: Board,
  when: { takenAt: number; dueAt: number | null } | undefined,
) {
  await trx
    .updateTable('leaderboard_snapshots')
    .set({
      participants: board.participants,
      top: JSON.stringify(board.top),
      top_cutoff: board.cutoff,
      ...(when ? { taken_at: when.takenAt, due_at: when.dueAt } : {}),
    })
    .where('quiz_id', '=', quizId)
    .execute()
  // A national mock's copy: every institute's board meets in one table of the deployment's (docs/decisions/102).
  await syncNationalEntries(trx, quizId)
}

export async function hasSnapshot(db: Kysely<DB>, quizId: number) {
  return (
    (await db
      .selectFrom('leaderboard_snapshots')
      .select('quiz_id')
      .where('quiz_id', '=', quizId)
      .executeTakeFirst()) !== undefined
  )
}

// Compiled once: every counted finish runs it, and building it with Kysely cost a submit about 90 µs, a tenth of its
// CPU (docs/performance.md, issue 62).
const incrementParticipants = precompile((db: Kysely<DB>, quizId: number) =>
  db
    .updateTable('leaderboard_snapshots')
    .set((eb) => ({ participants: eb('participants', '+', 1) }))
    .where('quiz_id', '=', quizId)
    .returning('top_cutoff'),
)

/** One more counted learner; the cutoff says whether the top changes too. Undefined: the quiz has no snapshot. */
export async function joinSnapshot(trx: Kysely<DB>, quizId: number) {
  return (await incrementParticipants(trx, quizId)).rows[0]
}

export async function findSnapshot(db: Kysely<DB>, quizId: number) {
  return db.selectFrom('leaderboard_snapshots').selectAll().where('quiz_id', '=', quizId).executeTakeFirst()
}
