import type { Insertable, Kysely } from 'kysely'
import type { DB, LoginSessionTable } from '../db/schema'

export async function insertLoginSession(db: Kysely<DB>, row: Insertable<LoginSessionTable>): Promise<void> {
  await db.insertInto('login_sessions').values(row).execute()
}

export async function touchLoginSession(
  db: Kysely<DB>,
  id: string,
  { device, clientAddress, now }: { device: string; clientAddress: string; now: number },
): Promise<void> {
  await db
    .updateTable('login_sessions')
    .set({ device, client_address: clientAddress, last_used_at: now })
    .where('id', '=', id)
    .execute()
}

export function findLoginSession(db: Kysely<DB>, id: string) {
  return db.selectFrom('login_sessions').select('created_at').where('id', '=', id).executeTakeFirst()
}

/** A login is live while its latest refresh token is neither rotated, revoked nor expired. */
function live(db: Kysely<DB>, userId: number, now: number) {
  return db
    .selectFrom('login_sessions as s')
    .where('s.user_id', '=', userId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('refresh_tokens as r')
          .select('r.jti')
          .whereRef('r.family_id', '=', 's.id')
          .where('r.rotated_at', 'is', null)
          .where('r.revoked_at', 'is', null)
          .where('r.expires_at', '>', now),
      ),
    )
}

export function listLiveLoginSessions(db: Kysely<DB>, userId: number, now: number) {
  return live(db, userId, now).selectAll('s').orderBy('s.last_used_at', 'desc').orderBy('s.id').execute()
}

export function findLiveLoginSession(db: Kysely<DB>, userId: number, id: string, now: number) {
  return live(db, userId, now).selectAll('s').where('s.id', '=', id).executeTakeFirst()
}

export async function deleteEndedLoginSessionsOfUser(db: Kysely<DB>, userId: number): Promise<void> {
  await db
    .deleteFrom('login_sessions')
    .where('user_id', '=', userId)
    .where(({ not, exists, selectFrom, ref }) =>
      not(exists(selectFrom('refresh_tokens').select('jti').where('family_id', '=', ref('login_sessions.id')))),
    )
    .execute()
}

export async function loginAddressesOfUsername(db: Kysely<DB>, usernameKey: string): Promise<string[]> {
  const rows = await db
    .selectFrom('login_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select('s.client_address')
    .distinct()
    .where('u.username_key', '=', usernameKey)
    .execute()
  return rows.map((row) => row.client_address)
}
