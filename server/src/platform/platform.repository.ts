import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../db/database'
import type { DB } from '../db/schema'
import { PLATFORM_INSTITUTE_ID } from '../db/tenancy'

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
      .where('id', '!=', PLATFORM_INSTITUTE_ID)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('institutes')
      .select(columns)
      .where('id', '!=', PLATFORM_INSTITUTE_ID)
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute(),
  ])
  return { count: Number(count.n), rows }
}

export function findPlatformInstitute(db: Kysely<DB>, id: number) {
  // The platform's bank's row is no institute (docs/decisions/101).
  return db
    .selectFrom('institutes')
    .select(columns)
    .where('id', '=', id)
    .where('id', '!=', PLATFORM_INSTITUTE_ID)
    .executeTakeFirst()
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
 * The usage of a page of institutes in one statement (API.md "Platform admins"): each table read once for the whole
 * page, grouped by institute, not once per institute. `institute_id` is in no row type (decision 095), so this is
 * written as SQL. A picture or page that several rows of one institute name counts once.
 */
export async function usageOf(
  db: Kysely<DB>,
  dialect: Dialect,
  ids: readonly number[],
  monthStart: number,
): Promise<UsageRow[]> {
  if (ids.length === 0) return []
  // Both read a stored value's length from its header: neither loads the bytes.
  const length = (column: string) => (dialect === 'postgres' ? `octet_length(${column})` : `length(${column})`)
  // A file in the file store has its size in the row, its bytes column empty (docs/decisions/105).
  const bytes = (column: string, size: string) => sql.raw(`coalesce(${size}, ${length(column)})`)
  const page = sql.join(ids)
  const { rows } = await sql<Record<keyof UsageRow, number | string>>`
    with members as (
      select institute_id,
        sum(case when is_learner = 1 then 1 else 0 end) as learners,
        sum(case when is_admin = 1 then 1 else 0 end) as admins
      from memberships where institute_id in (${page}) group by institute_id
    ), month_attempts as (
      select institute_id, count(*) as n from attempts
      where institute_id in (${page}) and started_at >= ${monthStart} group by institute_id
    ), named_pictures as (
      select institute_id, image_picture as hash from question_revisions
        where institute_id in (${page}) and image_picture is not null
      union select institute_id, image_picture from question_options
        where institute_id in (${page}) and image_picture is not null
      union select id, logo_hash from institutes where id in (${page}) and logo_hash is not null
    ), picture_bytes as (
      select n.institute_id, sum(${bytes('p.data', 'p.data_size')}) as n
      from named_pictures n join pictures p on p.hash = n.hash group by n.institute_id
    ), scan_bytes as (
      select institute_id, sum(${bytes('photo', 'photo_size')}) as n from sitting_scans
      where institute_id in (${page}) group by institute_id
    ), photo_bytes as (
      select institute_id, sum(${bytes('photo', 'photo_size')}) as n from scan_photos
      where institute_id in (${page}) group by institute_id
    ), named_pages as (
      select institute_id, image_hash as hash from booklet_pages where institute_id in (${page})
      union select institute_id, answer_hash from booklet_pages
        where institute_id in (${page}) and answer_hash is not null
      union select institute_id, image_hash from written_answer_pages where institute_id in (${page})
    ), page_bytes as (
      select n.institute_id, sum(${bytes('g.data', 'g.data_size')} + coalesce(${bytes('g.phone_data', 'g.phone_size')}, 0)) as n
      from named_pages n join page_images g on g.hash = n.hash group by n.institute_id
    )
    select i.id,
      coalesce(m.learners, 0) as learners,
      coalesce(m.admins, 0) as admins,
      coalesce(a.n, 0) as attempts_this_month,
      coalesce(pb.n, 0) + coalesce(sb.n, 0) + coalesce(fb.n, 0) + coalesce(gb.n, 0) as file_bytes
    from institutes i
    left join members m on m.institute_id = i.id
    left join month_attempts a on a.institute_id = i.id
    left join picture_bytes pb on pb.institute_id = i.id
    left join scan_bytes sb on sb.institute_id = i.id
    left join photo_bytes fb on fb.institute_id = i.id
    left join page_bytes gb on gb.institute_id = i.id
    where i.id in (${page})
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
  return db
    .selectFrom('users')
    .select(['id', 'username', 'is_platform_admin'])
    .where('id', '=', userId)
    .executeTakeFirst()
}
