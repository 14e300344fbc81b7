import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

/** The account's roles in one institute (docs/decisions/096); undefined: no membership there. */
export function findAdminFlag(db: Kysely<DB>, userId: number, instituteId: number) {
  return db
    .selectFrom('memberships')
    .select(['is_admin', 'is_marker'])
    .where('user_id', '=', userId)
    .where('institute_id', '=', instituteId)
    .executeTakeFirst()
}

/** The account's own flag (docs/decisions/097); undefined: no such account. */
export function findPlatformAdminFlag(db: Kysely<DB>, userId: number) {
  return db.selectFrom('users').select('is_platform_admin').where('id', '=', userId).executeTakeFirst()
}

export async function isLoginLive(db: Kysely<DB>, userId: number, sessionId: string, now: number) {
  const live = await db
    .selectFrom('refresh_tokens')
    .select('jti')
    .where('family_id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return live !== undefined
}
