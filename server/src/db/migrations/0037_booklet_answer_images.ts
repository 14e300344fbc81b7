import { type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 72, finding 4 (docs/decisions/089): a booklet page's image as markers and its learner see it, the page below
// its question rows with the printed name, roll number and code gone, kept in page_images beside the whole photo
// (image_hash, which admins reviewing the scan see). Null for pages read before it: they join with the whole photo.
export const bookletAnswerImages = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('booklet_pages')
      .addColumn('answer_hash', 'text', (c) => c.references('page_images.hash'))
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('booklet_pages').dropColumn('answer_hash').execute()
  },
})
