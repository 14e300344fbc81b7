import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../database'

// API.md "Exam feel": shuffle switches, each attempt's option order, per-question review marks, visits and seconds.
export const examFeel = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
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
