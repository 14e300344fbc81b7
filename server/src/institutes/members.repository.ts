import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { PLATFORM_INSTITUTE_ID } from '../db/tenancy'

// Memberships are an account's rows (db/tenancy.ts): no filter adds the institute, so every query here names it.
// Invitations are the institute's: the request's scope holds them to it.

export type Role = 'learner' | 'admin' | 'marker'

export interface Roles {
  is_learner: number
  is_admin: number
  is_marker: number
}

const NO_ROLE: Roles = { is_learner: 0, is_admin: 0, is_marker: 0 }

export const hasAnyRole = (roles: Roles | undefined): roles is Roles =>
  roles !== undefined && (roles.is_learner === 1 || roles.is_admin === 1 || roles.is_marker === 1)

export const rolesOf = (roles: Roles): Role[] => [
  ...(roles.is_learner === 1 ? (['learner'] as const) : []),
  ...(roles.is_admin === 1 ? (['admin'] as const) : []),
  ...(roles.is_marker === 1 ? (['marker'] as const) : []),
]

export const rolesFrom = (roles: readonly Role[]): Roles => ({
  is_learner: roles.includes('learner') ? 1 : 0,
  is_admin: roles.includes('admin') ? 1 : 0,
  is_marker: roles.includes('marker') ? 1 : 0,
})

export const withRole = (roles: Roles | undefined, role: Role): Roles => ({ ...(roles ?? NO_ROLE), [`is_${role}`]: 1 })

export function findMembership(db: Kysely<DB>, userId: number, instituteId: number): Promise<Roles | undefined> {
  return db
    .selectFrom('memberships')
    .select(['is_learner', 'is_admin', 'is_marker'])
    .where('user_id', '=', userId)
    .where('institute_id', '=', instituteId)
    .executeTakeFirst()
}

/** Sets an account's roles in an institute, making the membership if it has none (every role 0 ends it). */
export async function saveMembership(
  db: Kysely<DB>,
  { userId, instituteId, roles, now }: { userId: number; instituteId: number; roles: Roles; now: number },
): Promise<void> {
  await db
    .insertInto('memberships')
    .values({ user_id: userId, institute_id: instituteId, ...roles, created_at: now })
    .onConflict((conflict) => conflict.columns(['user_id', 'institute_id']).doUpdateSet(roles))
    .execute()
}

/** Learner memberships of many new accounts at once (the caller keeps batches within parameter limits). */
export async function insertLearnerMemberships(
  db: Kysely<DB>,
  userIds: readonly number[],
  instituteId: number,
  now: number,
): Promise<void> {
  if (userIds.length === 0) return
  await db
    .insertInto('memberships')
    .values(userIds.map((userId) => ({ user_id: userId, institute_id: instituteId, created_at: now })))
    .execute()
}

export function findOpenRegistration(db: Kysely<DB>, instituteId: number) {
  return db
    .selectFrom('institutes')
    .select('open_registration')
    .where('id', '=', instituteId)
    .executeTakeFirst()
    .then((row) => row?.open_registration === 1)
}

export function findInstituteIdBySlug(db: Kysely<DB>, slug: string) {
  return db
    .selectFrom('institutes')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirst()
    .then((row) => row?.id)
}

export function listInstituteSlugs(db: Kysely<DB>) {
  // The platform's bank's row is no institute a command works in (docs/decisions/101).
  return db
    .selectFrom('institutes')
    .select(['id', 'slug'])
    .where('id', '!=', PLATFORM_INSTITUTE_ID)
    .orderBy('id')
    .execute()
}

export function findInvitation(db: Kysely<DB>, phoneNumber: string) {
  return db
    .selectFrom('institute_invitations')
    .select('role')
    .where('phone_number', '=', phoneNumber)
    .executeTakeFirst()
    .then((row) => row?.role)
}

export async function deleteInvitation(db: Kysely<DB>, phoneNumber: string): Promise<void> {
  await db.deleteFrom('institute_invitations').where('phone_number', '=', phoneNumber).execute()
}

export async function saveInvitations(
  db: Kysely<DB>,
  phoneNumbers: readonly string[],
  role: Role,
  now: number,
): Promise<void> {
  // Replaced, not upserted: the key's institute_id is the filter's to write, and no query of ours names it.
  for (let start = 0; start < phoneNumbers.length; start += 500) {
    const batch = phoneNumbers.slice(start, start + 500)
    await db.deleteFrom('institute_invitations').where('phone_number', 'in', batch).execute()
    await db
      .insertInto('institute_invitations')
      .values(batch.map((phone_number) => ({ phone_number, role, invited_at: now })))
      .execute()
  }
}

/** The memberships of an account, with what `GET /api/users/memberships/` shows of each institute. */
export async function listMembershipsOf(db: Kysely<DB>, userId: number) {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('institutes as i', 'i.id', 'm.institute_id')
    .leftJoin('pictures as p', 'p.hash', 'i.logo_hash')
    .select(['i.id', 'i.slug', 'i.name_en', 'i.name_ne', 'p.hash', 'p.width', 'p.height'])
    .select(['m.is_learner', 'm.is_admin', 'm.is_marker'])
    .where('m.user_id', '=', userId)
    .where((eb) => eb.or([eb('m.is_learner', '=', 1), eb('m.is_admin', '=', 1), eb('m.is_marker', '=', 1)]))
    .orderBy('i.id')
    .execute()
  if (rows.length === 0) return []
  const hosts = await db
    .selectFrom('institute_hosts')
    .select(['host', 'institute_id'])
    .where(
      'institute_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('host')
    .execute()
  return rows.map((row) => ({ ...row, hosts: hosts.filter((h) => h.institute_id === row.id).map((h) => h.host) }))
}

/** `like` treats % and _ as wildcards: a search for "50%" must find the text "50%", not everything. */
const likePattern = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

function members(db: Kysely<DB>, instituteId: number, { search, role }: { search: string; role?: Role | undefined }) {
  const pattern = likePattern(search)
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.institute_id', '=', instituteId)
    .where((eb) => eb.or([eb('m.is_learner', '=', 1), eb('m.is_admin', '=', 1), eb('m.is_marker', '=', 1)]))
    .$if(role !== undefined, (query) => query.where(`m.is_${role!}`, '=', 1))
    .$if(search !== '', (query) =>
      query.where((eb) =>
        eb.or([
          sql<boolean>`lower(u.username) like ${pattern} escape '\\'`,
          sql<boolean>`lower(u.full_name) like ${pattern} escape '\\'`,
          sql<boolean>`u.phone_number like ${pattern} escape '\\'`,
        ]),
      ),
    )
}

export async function countMembers(db: Kysely<DB>, instituteId: number, filter: { search: string; role?: Role }) {
  const row = await members(db, instituteId, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

const memberColumns = [
  'u.id',
  'u.username',
  'u.full_name',
  'u.phone_number',
  'm.is_learner',
  'm.is_admin',
  'm.is_marker',
  'm.created_at',
] as const

export function pageMembers(
  db: Kysely<DB>,
  instituteId: number,
  filter: { search: string; role?: Role },
  { limit, offset }: { limit: number; offset: number },
) {
  return members(db, instituteId, filter)
    .select(memberColumns)
    .orderBy('m.created_at', 'desc')
    .orderBy('u.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()
}

export function findMember(db: Kysely<DB>, instituteId: number, userId: number) {
  return members(db, instituteId, { search: '' }).select(memberColumns).where('u.id', '=', userId).executeTakeFirst()
}

export type MemberRow = NonNullable<Awaited<ReturnType<typeof findMember>>>

/** Accounts by phone, each with its roles in the institute (undefined: no membership). */
export async function accountsByPhone(db: Kysely<DB>, instituteId: number, phones: readonly string[]) {
  const found = new Map<string, { id: number; username: string; roles: Roles | undefined }>()
  for (let start = 0; start < phones.length; start += 500) {
    const rows = await db
      .selectFrom('users as u')
      .leftJoin('memberships as m', (join) =>
        join.onRef('m.user_id', '=', 'u.id').on('m.institute_id', '=', instituteId),
      )
      .select(['u.id', 'u.username', 'u.phone_number', 'm.is_learner', 'm.is_admin', 'm.is_marker'])
      .where('u.phone_number', 'in', phones.slice(start, start + 500))
      .execute()
    for (const row of rows)
      found.set(row.phone_number, {
        id: row.id,
        username: row.username,
        roles:
          row.is_learner === null
            ? undefined
            : { is_learner: row.is_learner, is_admin: row.is_admin ?? 0, is_marker: row.is_marker ?? 0 },
      })
  }
  return found
}
