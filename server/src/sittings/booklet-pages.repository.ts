import type { Insertable, Kysely, Updateable } from 'kysely'
import type { BookletPageTable, DB } from '../db/schema'

const pageColumns = [
  'p.id',
  'p.sitting_id',
  'p.sheet',
  'p.serial',
  'p.page_number',
  'p.status',
  'p.roll_number',
  'p.user_id',
  'p.questions',
  'p.flags',
  'p.question_box',
  'p.image_hash',
  'p.answer_hash',
  'p.created_at',
  'u.username',
  'u.full_name',
] as const

const pages = (db: Kysely<DB>) =>
  db.selectFrom('booklet_pages as p').leftJoin('users as u', 'u.id', 'p.user_id').select(pageColumns)

export function findBookletPage(db: Kysely<DB>, pageId: number, { lock = false } = {}) {
  return pages(db)
    .where('p.id', '=', pageId)
    .$if(lock, (query) => query.forUpdate('p'))
    .executeTakeFirst()
}
export type BookletPageRow = NonNullable<Awaited<ReturnType<typeof findBookletPage>>>

export const findPageByUpload = (db: Kysely<DB>, sittingId: number, uploadHash: string) =>
  pages(db).where('p.sitting_id', '=', sittingId).where('p.upload_hash', '=', uploadHash).executeTakeFirst()

export const listPagesOfSheet = (db: Kysely<DB>, sittingId: number, sheet: string) =>
  pages(db)
    .where('p.sitting_id', '=', sittingId)
    .where((eb) => eb.or([eb('p.sheet', '=', sheet), eb('p.sheet', 'like', `${sheet}/%`)]))
    .orderBy('p.id')
    .execute()

export const listSittingPages = (db: Kysely<DB>, sittingId: number, status?: BookletPageTable['status']) =>
  pages(db)
    .where('p.sitting_id', '=', sittingId)
    .$if(status !== undefined, (query) => query.where('p.status', '=', status!))
    .orderBy('p.id')
    .execute()

/** A learner's pages of the sitting that are recorded, in booklet order: numbered pages, then spare ones by serial. */
export const listRecordedPagesOf = (db: Kysely<DB>, sittingId: number, userId: number) =>
  pages(db)
    .where('p.sitting_id', '=', sittingId)
    .where('p.user_id', '=', userId)
    .where('p.status', '=', 'recorded')
    .execute()

export async function insertBookletPage(db: Kysely<DB>, row: Insertable<BookletPageTable>) {
  const inserted = await db.insertInto('booklet_pages').values(row).returning('id').executeTakeFirstOrThrow()
  return Number(inserted.id)
}

export async function updateBookletPage(db: Kysely<DB>, pageId: number, fields: Updateable<BookletPageTable>) {
  await db.updateTable('booklet_pages').set(fields).where('id', '=', pageId).execute()
}

export const findPageImage = (db: Kysely<DB>, hash: string) =>
  db.selectFrom('page_images').select(['data', 'data_key', 'content_type']).where('hash', '=', hash).executeTakeFirst()

/** The learner's paper attempt of the sitting that counts now (a replaced sheet's is withdrawn, so gone). */
export const findSittingAttempt = (db: Kysely<DB>, sittingId: number, userId: number) =>
  db
    .selectFrom('attempts')
    .select(['id', 'revision_ids'])
    .where('sitting_id', '=', sittingId)
    .where('user_id', '=', userId)
    .where('mode', '=', 'paper')
    .orderBy('id', 'desc')
    .executeTakeFirst()
