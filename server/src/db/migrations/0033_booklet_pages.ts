import { type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// docs/decisions/075: a sitting's written-answer booklets and each photographed booklet page.
export const bookletPages = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('sittings')
        .addColumn('booklet_pages', 'integer', (c) => c.notNull().defaultTo(4))
        .execute()
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
