import { type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 58, API.md "Written answers marked by rubric", "On paper" (docs/decisions/075): a sitting's written-answer
// booklets (pages a learner, a sitting setting) and each photographed booklet page: whose, which page, which
// question(s), its flags and its photo (in page_images, once per content, as photographed answer pages).
export const bookletPages = (dialect: Dialect): Migration => {
  const id = dialect === 'postgres' ? 'serial' : 'integer'
  const pk = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('sittings')
        .addColumn('booklet_pages', 'integer', (c) => c.notNull().defaultTo(4))
        .execute()
      // sheet: the page the code names ('W<page>R<roll>U<user>', 'W<page>B<serial>', 'X<serial>' for a spare page),
      // '/<n>' after it for a photocopy of a blank one; status 'recorded', 'needs_review' or 'discarded'.
      // questions: JSON array of the printed question numbers the page answers; flags: JSON as a scan's.
      // upload_hash: sha256 of the photo as sent, so the same photo sent twice is one page.
      await db.schema
        .createTable('booklet_pages')
        .addColumn('id', id, pk)
        .addColumn('sitting_id', 'integer', (c) => c.notNull().references('sittings.id').onDelete('cascade'))
        .addColumn('sheet', 'text', (c) => c.notNull())
        .addColumn('serial', 'integer')
        .addColumn('page_number', 'integer')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('roll_number', 'integer')
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('questions', 'text', (c) => c.notNull())
        .addColumn('flags', 'text', (c) => c.notNull())
        // JSON: where the question bubbles are in the photo (a scan box), outlined for a person settling a flag.
        .addColumn('question_box', 'text', (c) => c.notNull())
        .addColumn('image_hash', 'text', (c) => c.notNull().references('page_images.hash'))
        .addColumn('upload_hash', 'text', (c) => c.notNull())
        .addColumn('scanned_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('booklet_pages_sheet', ['sitting_id', 'sheet'])
        .execute()
      await db.schema
        .createIndex('booklet_pages_learner')
        .on('booklet_pages')
        .columns(['sitting_id', 'user_id'])
        .execute()
      await db.schema
        .createIndex('booklet_pages_upload')
        .on('booklet_pages')
        .columns(['sitting_id', 'upload_hash'])
        .execute()
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('booklet_pages').execute()
      await db.schema.alterTable('sittings').dropColumn('booklet_pages').execute()
    },
  }
}
