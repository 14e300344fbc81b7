import { type Kysely, type Migration } from 'kysely'

// docs/decisions/089: a booklet page's image without name, roll and code; null for older pages.
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
