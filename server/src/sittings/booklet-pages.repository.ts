import type { Insertable, Kysely, Updateable } from 'kysely'
import type { BookletPageTable, DB } from '../db/schema'

// Booklet pages of a sitting (migration 0033) and the written answers they join (migration 0025's tables: a paper
// learner's pages are kept there as a phone's are, so marking and results read them alike).

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

/** The scans of one printed page: itself and its photocopies (`<sheet>/<n>`). */
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
  db.selectFrom('page_images').select(['data', 'content_type']).where('hash', '=', hash).executeTakeFirst()

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

export const findWrittenAnswerOf = (db: Kysely<DB>, attemptId: number, questionId: number) =>
  db
    .selectFrom('written_answers')
    .select(['id', 'status'])
    .where('attempt_id', '=', attemptId)
    .where('question_id', '=', questionId)
    .executeTakeFirst()

export async function insertPaperWrittenAnswer(
  db: Kysely<DB>,
  answer: { attempt_id: number; question_id: number; revision_id: number },
  now: number,
) {
  const row = await db
    .insertInto('written_answers')
    .values({ ...answer, score_hundredths: null, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(row.id)
}

export const listAnswerPageHashes = async (db: Kysely<DB>, answerId: number) =>
  (
    await db
      .selectFrom('written_answer_pages')
      .select('image_hash')
      .where('answer_id', '=', answerId)
      .orderBy('number')
      .execute()
  ).map((row) => row.image_hash)

/** The answer's pages become `hashes`, numbered 1.. in that order. */
export async function replaceAnswerPages(db: Kysely<DB>, answerId: number, hashes: readonly string[], now: number) {
  await db.deleteFrom('written_answer_pages').where('answer_id', '=', answerId).execute()
  if (hashes.length > 0)
    await db
      .insertInto('written_answer_pages')
      .values(
        hashes.map((hash, index) => ({
          answer_id: answerId,
          number: index + 1,
          image_hash: hash,
          annotations: null,
          created_at: now,
        })),
      )
      .execute()
}

export const deleteWrittenAnswer = (db: Kysely<DB>, answerId: number) =>
  db.deleteFrom('written_answers').where('id', '=', answerId).execute()
