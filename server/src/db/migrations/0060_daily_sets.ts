import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../database'
import { holdToInstitute } from './0048_row_security'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 80 (docs/decisions/110): an institute's daily set. Its settings, one row per Nepal day (the claim that makes
// the draw happen once whatever the number of processes), the day's quiz naming its day, the reminders sent (one a
// learner a day), and the learner's reminder hour.
export const dailySets = (dialect: Dialect): Migration => {
  const instituteColumn = 'institute_id'
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('daily_settings')
        .addColumn(instituteColumn, 'integer', (c) => c.notNull().defaultTo(1).primaryKey())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('topics', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('question_count', 'integer', (c) => c.notNull())
        .addColumn('duration_minutes', 'integer', (c) => c.notNull())
        .addColumn('marks_correct', 'integer', (c) => c.notNull())
        .addColumn('marks_wrong', 'integer', (c) => c.notNull())
        .addColumn('publish_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('daily_days')
        .addColumn(instituteColumn, 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('day', 'text', (c) => c.notNull())
        // JSON question ids: fixed by an admin before publication, or the draw once published.
        .addColumn('question_ids', 'text')
        .addColumn('fixed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('quiz_id', 'integer')
        .addColumn('published_at', 'bigint')
        .addPrimaryKeyConstraint('daily_days_pk', [instituteColumn, 'day'])
        .execute()
      await db.schema
        .createTable('daily_reminders')
        .addColumn(instituteColumn, 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('daily_reminders_pk', [instituteColumn, 'user_id', 'day'])
        .execute()
      await db.schema.alterTable('quizzes').addColumn('daily_date', 'text').execute()
      await db.schema.alterTable('users').addColumn('daily_reminder', 'text').execute()
      await db.schema.createIndex('quizzes_daily').on('quizzes').columns(['institute_id', 'daily_date']).execute()
      if (dialect === 'postgres')
        for (const table of ['daily_settings', 'daily_days', 'daily_reminders']) await holdToInstitute(db, table)
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('quizzes_daily').execute()
      await db.schema.alterTable('users').dropColumn('daily_reminder').execute()
      await db.schema.alterTable('quizzes').dropColumn('daily_date').execute()
      for (const table of ['daily_reminders', 'daily_days', 'daily_settings'])
        await db.schema.dropTable(table).execute()
    },
  }
}
