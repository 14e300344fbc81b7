import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// API.md "Exam feel": shuffle switches on quizzes, each attempt's drawn option order, and per-question review
// marks, visits and seconds. Existing rows get the defaults: no shuffling, authored option order (null), and
// no states (no row reads as not marked, not visited, no time).
export const examFeel = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<any>) {
    // One column per statement: SQLite's ALTER TABLE adds one column at a time.
    await db.schema
      .alterTable('quizzes')
      .addColumn('shuffle_questions', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .alterTable('quizzes')
      .addColumn('shuffle_options', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema.alterTable('attempts').addColumn('option_order', 'text').execute()

    await db.schema
      .createTable('attempt_question_states')
      .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
      .addColumn('question_id', 'integer', (c) => c.notNull())
      .addColumn('marked', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('visited', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('time_spent', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('attempt_question_states_pk', ['attempt_id', 'question_id'])
      .execute()
  },
})
