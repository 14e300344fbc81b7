import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../db/database'
import type { DB } from '../db/schema'

// Reads across institutes: run only outside any institute's scope (the platform's routes, docs/decisions/097).

const columns = [
  'id',
  'slug',
  'name_en',
  'name_ne',
  'colour',
  'logo_hash',
  'sms_sender',
  'open_registration',
  'status',
] as const

export async function pageInstitutes(db: Kysely<DB>, { limit, offset }: { limit: number; offset: number }) {
  const [count, rows] = await Promise.all([
    db
      .selectFrom('institutes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db.selectFrom('institutes').select(columns).orderBy('id').limit(limit).offset(offset).execute(),
  ])
  return { count: Number(count.n), rows }
}

export function findPlatformInstitute(db: Kysely<DB>, id: number) {
  return db.selectFrom('institutes').select(columns).where('id', '=', id).executeTakeFirst()
}

export type PlatformInstituteRow = NonNullable<Awaited<ReturnType<typeof findPlatformInstitute>>>

/** A new institute's look and door, beside what the institutes service made (in its transaction). */
export async function updateInstituteSettings(
  db: Kysely<DB>,
  id: number,
  changes: { colour?: string; open_registration?: number; logo_hash?: string | null },
) {
  if (Object.keys(changes).length === 0) return
  await db.updateTable('institutes').set(changes).where('id', '=', id).execute()
}

export function hostsOf(db: Kysely<DB>, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('institute_hosts')
    .select(['host', 'institute_id'])
    .where('institute_id', 'in', ids)
    .orderBy('host')
    .execute()
}

export function logosOf(db: Kysely<DB>, hashes: readonly string[]) {
  if (hashes.length === 0) return Promise.resolve([])
  return db.selectFrom('pictures').select(['hash', 'width', 'height']).where('hash', 'in', hashes).execute()
}

export interface UsageRow {
  id: number
  learners: number
  admins: number
  attempts_this_month: number
  file_bytes: number
}

/**
 * The usage of a page of institutes in one statement (API.md "Platform admins"). `institute_id` is in no row type
 * (decision 095), so this is written as SQL. A picture or page two rows of one institute name counts once.
 */
export async function usageOf(
  db: Kysely<DB>,
  dialect: Dialect,
  ids: readonly number[],
  monthStart: number,
): Promise<UsageRow[]> {
  if (ids.length === 0) return []
  // Both read a stored value's length from its header: neither loads the bytes.
  const bytes = (column: string) => sql.raw(dialect === 'postgres' ? `octet_length(${column})` : `length(${column})`)
  const { rows } = await sql<Record<keyof UsageRow, number | string>>`
    select i.id,
      (select count(*) from memberships m where m.institute_id = i.id and m.is_learner = 1) as learners,
      (select count(*) from memberships m where m.institute_id = i.id and m.is_admin = 1) as admins,
      (select count(*) from attempts a where a.institute_id = i.id and a.started_at >= ${monthStart})
        as attempts_this_month,
      coalesce((select sum(${bytes('p.data')}) from pictures p where p.hash in (
          select r.image_picture from question_revisions r where r.institute_id = i.id
          union select o.image_picture from question_options o where o.institute_id = i.id
          union select i.logo_hash)), 0)
      + coalesce((select sum(${bytes('s.photo')}) from sitting_scans s where s.institute_id = i.id), 0)
      + coalesce((select sum(${bytes('s.photo')}) from scan_photos s where s.institute_id = i.id), 0)
      + coalesce((select sum(${bytes('g.data')} + coalesce(${bytes('g.phone_data')}, 0)) from page_images g
          where g.hash in (
            select b.image_hash from booklet_pages b where b.institute_id = i.id
            union select b.answer_hash from booklet_pages b where b.institute_id = i.id
            union select w.image_hash from written_answer_pages w where w.institute_id = i.id)), 0)
        as file_bytes
    from institutes i
    where i.id in (${sql.join(ids)})
  `.execute(db)
  return rows.map((row) => ({
    id: Number(row.id),
    learners: Number(row.learners),
    admins: Number(row.admins),
    attempts_this_month: Number(row.attempts_this_month),
    file_bytes: Number(row.file_bytes),
  }))
}

export function findPlatformAdmin(db: Kysely<DB>, userId: number) {
  return db.selectFrom('users').select(['id', 'username', 'is_platform_admin']).where('id', '=', userId).executeTakeFirst()
}
