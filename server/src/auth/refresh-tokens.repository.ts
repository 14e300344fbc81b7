import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/schema'

export async function insertRefreshToken(
  db: Kysely<DB>,
  row: { jti: string; user_id: number; family_id: string; expires_at: number; created_at: number },
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({ ...row, rotated_at: null, revoked_at: null })
    .execute()
}

export async function findRefreshToken(db: Kysely<DB>, jti: string) {
  return db.selectFrom('refresh_tokens').selectAll().where('jti', '=', jti).executeTakeFirst()
}

// Conditional on it still being live, so of two concurrent refreshes with one token exactly one wins.
export async function markRotated(db: Kysely<DB>, jti: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ rotated_at: now })
    .where('jti', '=', jti)
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function revokeFamily(db: Kysely<DB>, familyId: string, now: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute()
}

export async function revokeAllOfUser(db: Kysely<DB>, userId: number, now: number, keepFamily?: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .$if(keepFamily !== undefined, (query) => query.where('family_id', '!=', keepFamily!))
    .execute()
}

/** Expired rows can never be used again; each login clears its user's, which keeps the table small. */
export async function deleteExpiredOfUser(db: Kysely<DB>, userId: number, now: number): Promise<void> {
  await db.deleteFrom('refresh_tokens').where('user_id', '=', userId).where('expires_at', '<', now).execute()
}

export async function findRegisteredMockEnd(db: Kysely<DB>, userId: number, now: number): Promise<number | null> {
  const ends = sql<number | string>`q.live_starts_at + q.duration_minutes * 60000`
  const row = await db
    .selectFrom('live_registrations as r')
    .innerJoin('quizzes as q', 'q.id', 'r.quiz_id')
    .select(sql<number | string | null>`max(${ends})`.as('ends_at'))
    .where('r.user_id', '=', userId)
    .where('q.live_starts_at', 'is not', null)
    .where('q.deleted_at', 'is', null)
    .where(ends, '>', now)
    .executeTakeFirst()
  return row?.ends_at == null ? null : Number(row.ends_at)
}
