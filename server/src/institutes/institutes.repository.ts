import type { Kysely, Updateable } from 'kysely'
import type { DB, InstituteTable } from '../db/schema'

const instituteColumns = [
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

/** Every institute with its hosts: the host table of one deployment (a few thousand rows at the most). */
export async function listInstitutesWithHosts(db: Kysely<DB>) {
  const [institutes, hosts] = await Promise.all([
    db.selectFrom('institutes').select(instituteColumns).orderBy('id').execute(),
    db.selectFrom('institute_hosts').select(['host', 'institute_id']).execute(),
  ])
  return { institutes, hosts }
}

export type InstituteRow = Awaited<ReturnType<typeof listInstitutesWithHosts>>['institutes'][number]

export function findLogo(db: Kysely<DB>, hash: string) {
  return db.selectFrom('pictures').select(['hash', 'width', 'height']).where('hash', '=', hash).executeTakeFirst()
}

export async function insertInstitute(
  trx: Kysely<DB>,
  institute: { slug: string; name_en: string; name_ne: string; created_at: number },
  hosts: readonly string[],
) {
  const { id } = await trx.insertInto('institutes').values(institute).returning('id').executeTakeFirstOrThrow()
  if (hosts.length > 0) {
    await trx
      .insertInto('institute_hosts')
      .values(hosts.map((host) => ({ host, institute_id: id })))
      .execute()
  }
  return id
}

export function findTakenHosts(db: Kysely<DB>, hosts: readonly string[]) {
  if (hosts.length === 0) return Promise.resolve([])
  return db.selectFrom('institute_hosts').select(['host', 'institute_id']).where('host', 'in', hosts).execute()
}

export function findInstituteBySlug(db: Kysely<DB>, slug: string) {
  return db.selectFrom('institutes').select(instituteColumns).where('slug', '=', slug).executeTakeFirst()
}

export function findInstituteById(db: Kysely<DB>, id: number) {
  return db.selectFrom('institutes').select(instituteColumns).where('id', '=', id).executeTakeFirst()
}

export type InstituteChanges = Partial<
  Pick<Updateable<InstituteTable>, 'name_en' | 'name_ne' | 'colour' | 'logo_hash' | 'open_registration' | 'status'>
>

export async function updateInstitute(db: Kysely<DB>, id: number, changes: InstituteChanges) {
  if (Object.keys(changes).length === 0) return
  await db.updateTable('institutes').set(changes).where('id', '=', id).execute()
}

export async function replaceHosts(db: Kysely<DB>, id: number, hosts: readonly string[]) {
  await db.deleteFrom('institute_hosts').where('institute_id', '=', id).execute()
  if (hosts.length > 0)
    await db
      .insertInto('institute_hosts')
      .values(hosts.map((host) => ({ host, institute_id: id })))
      .execute()
}
