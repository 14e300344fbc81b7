import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'
import { holdToInstitute } from './0048_row_security'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 77 (docs/decisions/117): a bank passage (bilingual text with maths, an optional picture, as a question's
// text and image are stored) and its questions in order; a question belongs to at most one passage (its primary
// key). A paper's item rows name the passage they were set from; a draw may take whole passages only.
export const passages = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('passages')
        .addColumn('id', id, pk)
        .addColumn('institute_id', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('text_en', 'text', (c) => c.notNull())
        .addColumn('text_ne', 'text', (c) => c.notNull())
        .addColumn('maths', 'text')
        .addColumn('image_svg', 'text')
        .addColumn('image_picture', 'text')
        .addColumn('image_width', 'integer')
        .addColumn('image_height', 'integer')
        .addColumn('image_caption_en', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('image_caption_ne', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        // Raised past every other passage's by each write: cached papers are keyed by the highest (and the count).
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema.createIndex('passages_by_institute').on('passages').columns(['institute_id', 'id']).execute()
      await db.schema
        .createTable('passage_questions')
        .addColumn('institute_id', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('passage_id', 'integer', (c) => c.notNull())
        // Question ids are the deployment's: one row per question is "a question in at most one passage".
        .addColumn('question_id', 'integer', (c) => c.notNull().primaryKey())
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('passage_questions_in_order')
        .on('passage_questions')
        .columns(['passage_id', 'position'])
        .execute()
      await db.schema.alterTable('paper_items').addColumn('passage_id', 'integer').execute()
      await db.schema
        .alterTable('paper_items')
        .addColumn('draw_passages', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema.createIndex('paper_items_by_passage').on('paper_items').column('passage_id').execute()
      if (dialect === 'postgres')
        for (const table of ['passages', 'passage_questions']) await holdToInstitute(db, table)
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('paper_items_by_passage').execute()
      await db.schema.alterTable('paper_items').dropColumn('draw_passages').execute()
      await db.schema.alterTable('paper_items').dropColumn('passage_id').execute()
      await db.schema.dropTable('passage_questions').execute()
      await db.schema.dropTable('passages').execute()
    },
  }
}
