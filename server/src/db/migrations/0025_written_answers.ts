import { type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 56, API.md "Written answers marked by rubric" (docs/decisions/065). A question's type and a written one's
// marks live on its revision (attempts keep theirs); its rubric on the question, with items and groups whose ids stay
// across edits, so every marked answer keeps the items it used and a change of an item re-scores them. Marks, points,
// bounds and adjustments are in hundredths, as everywhere (decision 029).
export const writtenAnswers = (dialect: Dialect): Migration => {
  const id = dialect === 'postgres' ? 'serial' : 'integer'
  const pk = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())
  const blob = dialect === 'postgres' ? 'bytea' : 'blob'

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('question_revisions')
        .addColumn('type', 'text', (c) => c.notNull().defaultTo('choice'))
        .execute()
      // Written only: marks (50..10,000), word_limit (10..5,000 or null), the model answer (null: none).
      await db.schema.alterTable('question_revisions').addColumn('marks', 'integer').execute()
      await db.schema.alterTable('question_revisions').addColumn('word_limit', 'integer').execute()
      await db.schema.alterTable('question_revisions').addColumn('model_answer_en', 'text').execute()
      await db.schema.alterTable('question_revisions').addColumn('model_answer_ne', 'text').execute()

      // No row: the default rubric, revision 0. floor / ceiling null: 0 and the answer's revision's marks.
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
        // Signed hundredths.
        .addColumn('points', 'integer', (c) => c.notNull())
        .addColumn('title_en', 'text', (c) => c.notNull())
        .addColumn('title_ne', 'text', (c) => c.notNull().defaultTo(''))
        // Null: no explanation.
        .addColumn('explanation_en', 'text')
        .addColumn('explanation_ne', 'text')
        .execute()
      await db.schema.createIndex('rubric_items_question').on('rubric_items').column('question_id').execute()

      // One per attempt and written question, made when the learner first writes or photographs it.
      // status: 'submitted' (waiting), 'marked', 'released'. score_hundredths: the rubric's score once marked.
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
        // The rubric revision it was last scored under.
        .addColumn('rubric_revision', 'integer')
        .addColumn('marked_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('marked_at', 'bigint')
        .addColumn('released_at', 'bigint')
        // A marker's claim (10 minutes) and the answer's place in its question's shuffled marking order.
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

      // The rubric items a marked answer used: a rubric change re-scores the answers holding a changed item.
      await db.schema
        .createTable('written_answer_items')
        .addColumn('answer_id', 'integer', (c) => c.notNull().references('written_answers.id').onDelete('cascade'))
        .addColumn('item_id', 'integer', (c) => c.notNull().references('rubric_items.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('written_answer_items_pk', ['answer_id', 'item_id'])
        .execute()
      await db.schema.createIndex('written_answer_items_item').on('written_answer_items').column('item_id').execute()

      // A photographed page: its image once per content (any process serves it), its place and a marker's annotations.
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
        // JSON {v: 1, marks: [...]}, null before marking.
        .addColumn('annotations', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('written_answer_pages_image', ['answer_id', 'image_hash'])
        .execute()

      // Every change of a marked answer's score by a rubric change (API.md: answer, old and new marks, revision, who, when).
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
