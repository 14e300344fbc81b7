import { sql, type Kysely } from 'kysely'
import type { DB, UserRowUpdate } from '../db/schema'

/** `like` treats % and _ as wildcards: a search for "50%" must find the text "50%", not everything. */
const likePattern = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

// The institute's members (docs/decisions/096): their roles are their memberships' there, an ended one none.
function matching(db: Kysely<DB>, instituteId: number, search: string) {
  const pattern = likePattern(search)
  return db
    .selectFrom('users as u')
    .innerJoin('memberships as m', (join) =>
      join.onRef('m.user_id', '=', 'u.id').on('m.institute_id', '=', instituteId),
    )
    .where((eb) => eb.or([eb('m.is_learner', '=', 1), eb('m.is_admin', '=', 1), eb('m.is_marker', '=', 1)]))
    .$if(search !== '', (query) =>
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

export async function countUsers(db: Kysely<DB>, instituteId: number, search: string) {
  const row = await matching(db, instituteId, search)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

const userColumns = [
  'u.id',
  'u.username',
  'u.full_name',
  'u.phone_number',
  'm.is_admin',
  'm.is_marker',
  'm.paid_access_until',
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

export function pageUsers(
  db: Kysely<DB>,
  instituteId: number,
  search: string,
  { limit, offset }: { limit: number; offset: number },
) {
  return withFinishedAttempts(matching(db, instituteId, search))
    .orderBy('u.created_at', 'desc')
    .orderBy('u.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()
}

export type ListedUserRow = Awaited<ReturnType<typeof pageUsers>>[number]

export function findListedUser(db: Kysely<DB>, instituteId: number, id: number) {
  return withFinishedAttempts(matching(db, instituteId, ''))
    .where('u.id', '=', id)
    .executeTakeFirst()
}

/** The membership's paid access in the institute; locks the row on PostgreSQL (SQLite's write transaction is already exclusive). */
export function findMembershipForUpdate(db: Kysely<DB>, id: number, instituteId: number, { lock }: { lock: boolean }) {
  return db
    .selectFrom('memberships')
    .select(['user_id', 'paid_access_until'])
    .where('user_id', '=', id)
    .where('institute_id', '=', instituteId)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirst()
}

export async function updateLearner(db: Kysely<DB>, id: number, changes: UserRowUpdate) {
  await db.updateTable('users').set(changes).where('id', '=', id).execute()
}

export async function updateMarkerRole(db: Kysely<DB>, id: number, instituteId: number, isMarker: boolean) {
  await db
    .updateTable('memberships')
    .set({ is_marker: isMarker ? 1 : 0 })
    .where('user_id', '=', id)
    .where('institute_id', '=', instituteId)
    .execute()
}
