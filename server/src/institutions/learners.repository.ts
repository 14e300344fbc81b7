import { sql, type Kysely } from 'kysely'
import type { DB, UserRowUpdate } from '../db/schema'

/** `like` treats % and _ as wildcards: a search for "50%" must find the text "50%", not everything. */
const likePattern = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

function matching(db: Kysely<DB>, search: string) {
  const pattern = likePattern(search)
  return db.selectFrom('users as u').$if(search !== '', (query) =>
    query.where((eb) =>
      eb.or([
        // lower() on both sides works alike on SQLite and PostgreSQL (Devanagari has no case to fold).
        sql<boolean>`lower(u.username) like ${pattern} escape '\\'`,
        sql<boolean>`lower(u.full_name) like ${pattern} escape '\\'`,
        sql<boolean>`u.phone_number like ${pattern} escape '\\'`,
      ]),
    ),
  )
}

export async function countUsers(db: Kysely<DB>, search: string) {
  const row = await matching(db, search)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

const userColumns = [
  'u.id',
  'u.username',
  'u.full_name',
  'u.phone_number',
  'u.is_admin',
  'u.is_marker',
  'u.paid_access_until',
  'u.extra_time_percent',
  'u.created_at',
] as const

function withFinishedAttempts(query: ReturnType<typeof matching>) {
  return query.select(userColumns).select((eb) =>
    eb
      .selectFrom('attempts')
      .select((sub) => sub.fn.countAll<number>().as('n'))
      .whereRef('attempts.user_id', '=', 'u.id')
      .where('attempts.status', '=', 'finished')
      .as('finished_attempts'),
  )
}

export function pageUsers(db: Kysely<DB>, search: string, { limit, offset }: { limit: number; offset: number }) {
  return withFinishedAttempts(matching(db, search))
    .orderBy('u.created_at', 'desc')
    .orderBy('u.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()
}

export type ListedUserRow = Awaited<ReturnType<typeof pageUsers>>[number]

export function findListedUser(db: Kysely<DB>, id: number) {
  return withFinishedAttempts(matching(db, '')).where('u.id', '=', id).executeTakeFirst()
}

/** Locks the row on PostgreSQL (SQLite's write transaction is already exclusive). */
export function findUserForUpdate(db: Kysely<DB>, id: number, { lock }: { lock: boolean }) {
  return db
    .selectFrom('users')
    .select(['id', 'paid_access_until'])
    .where('id', '=', id)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst()
}

export async function updateLearner(db: Kysely<DB>, id: number, changes: UserRowUpdate) {
  await db.updateTable('users').set(changes).where('id', '=', id).execute()
}
