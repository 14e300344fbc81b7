import { type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// docs/decisions/065: written questions, rubrics, answers, pages and rescores; marks in hundredths.
export const writtenAnswers = (dialect: Dialect): Migration => {
  const { id, pk, blob } = columnTypes(dialect)

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('question_revisions')
        .addColumn('type', 'text', (c) => c.notNull().defaultTo('choice'))
        .execute()
      await db.schema.alterTable('question_revisions').addColumn('marks', 'integer').execute()
      await db.schema.alterTable('question_revisions').addColumn('word_limit', 'integer').execute()
      await db.schema.alterTable('question_revisions').addColumn('model_answer_en', 'text').execute()
      await db.schema.alterTable('question_revisions').addColumn('model_answer_ne', 'text').execute()

      await db.schema
        .createTable('rubrics')
        .addColumn('question_id', 'integer', (c) => c.primaryKey().references('questions.id').onDelete('cascade'))
        .addColumn('scoring', 'text', (c) => c.notNull())
        .addColumn('floor', 'integer')
        .addColumn('ceiling', 'integer')
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('rubric_groups')
        .addColumn('id', id, pk)
        .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title_en', 'text', (c) => c.notNull())
        .addColumn('title_ne', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('exclusive', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema.createIndex('rubric_groups_question').on('rubric_groups').column('question_id').execute()
      await db.schema
        .createTable('rubric_items')
        .addColumn('id', id, pk)
        .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
        .addColumn('group_id', 'integer', (c) => c.references('rubric_groups.id').onDelete('set null'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('points', 'integer', (c) => c.notNull())
        .addColumn('title_en', 'text', (c) => c.notNull())
        .addColumn('title_ne', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('explanation_en', 'text')
        .addColumn('explanation_ne', 'text')
        .execute()
      await db.schema.createIndex('rubric_items_question').on('rubric_items').column('question_id').execute()

      await db.schema
        .createTable('written_answers')
        .addColumn('id', id, pk)
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id'))
        .addColumn('revision_id', 'integer', (c) => c.notNull().references('question_revisions.id'))
        .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('word_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('submitted'))
        .addColumn('score_hundredths', 'integer')
        .addColumn('adjustment', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('comment_en', 'text')
        .addColumn('comment_ne', 'text')
        .addColumn('rubric_revision', 'integer')
        .addColumn('marked_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('marked_at', 'bigint')
        .addColumn('released_at', 'bigint')
        .addColumn('claimed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('claimed_until', 'bigint')
        .addColumn('marking_order', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('written_answers_attempt_question', ['attempt_id', 'question_id'])
        .execute()
      await db.schema
        .createIndex('written_answers_question_status')
        .on('written_answers')
        .columns(['question_id', 'status'])
        .execute()

      await db.schema
        .createTable('written_answer_items')
        .addColumn('answer_id', 'integer', (c) => c.notNull().references('written_answers.id').onDelete('cascade'))
        .addColumn('item_id', 'integer', (c) => c.notNull().references('rubric_items.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('written_answer_items_pk', ['answer_id', 'item_id'])
        .execute()
      await db.schema.createIndex('written_answer_items_item').on('written_answer_items').column('item_id').execute()

      await db.schema
        .createTable('page_images')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('data', blob, (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('written_answer_pages')
        .addColumn('id', id, pk)
        .addColumn('answer_id', 'integer', (c) => c.notNull().references('written_answers.id').onDelete('cascade'))
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('image_hash', 'text', (c) => c.notNull().references('page_images.hash'))
        .addColumn('annotations', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('written_answer_pages_image', ['answer_id', 'image_hash'])
        .execute()

      await db.schema
        .createTable('written_rescores')
        .addColumn('id', id, pk)
        .addColumn('answer_id', 'integer', (c) => c.notNull().references('written_answers.id').onDelete('cascade'))
        .addColumn('attempt_id', 'integer', (c) => c.notNull())
        .addColumn('question_id', 'integer', (c) => c.notNull())
        .addColumn('old_marks', 'integer', (c) => c.notNull())
        .addColumn('new_marks', 'integer', (c) => c.notNull())
        .addColumn('rubric_revision', 'integer', (c) => c.notNull())
        .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('written_rescores_answer').on('written_rescores').column('answer_id').execute()
    },
    async down(db: Kysely<unknown>) {
      for (const table of [
        'written_rescores',
        'written_answer_pages',
        'page_images',
        'written_answer_items',
        'written_answers',
        'rubric_items',
        'rubric_groups',
        'rubrics',
      ])
        await db.schema.dropTable(table).execute()
      for (const column of ['model_answer_ne', 'model_answer_en', 'word_limit', 'marks', 'type'])
        await db.schema.alterTable('question_revisions').dropColumn(column).execute()
    },
  }
}
