import { type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/038: live mocks. A quiz may be scheduled live (everyone starts in a join window after
// live_starts_at and finishes at the common end); an attempt started after the window is practice (ranked = 0).
// Learners register for reminders; each reminder and the results notice is one live_announcements row, claimed in
// the database by the process that sends it, so it goes out once whatever the number of processes.
export const liveMocks = (dialect: Dialect): Migration => {
  const id = dialect === 'postgres' ? 'serial' : 'integer'
  const pk = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())

  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('quizzes').addColumn('live_starts_at', 'bigint').execute()
      await db.schema.alterTable('quizzes').addColumn('live_join_minutes', 'integer').execute()
      await db.schema
        .alterTable('attempts')
        .addColumn('ranked', 'integer', (c) => c.notNull().defaultTo(1))
        .execute()
      await db.schema
        .alterTable('users')
        .addColumn('sms_reminders', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema
        .alterTable('users')
        .addColumn('show_on_leaderboards', 'integer', (c) => c.notNull().defaultTo(1))
        .execute()

      await db.schema
        .createTable('live_registrations')
        .addColumn('quiz_id', 'integer', (c) => c.notNull().references('quizzes.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('live_registrations_pk', ['quiz_id', 'user_id'])
        .execute()
      await db.schema.createIndex('live_registrations_user').on('live_registrations').column('user_id').execute()

      // kind: reminder_day (24 h before), reminder_quarter (15 min before), results (at the common end).
      // starts_at: the schedule the row was made for; moving the mock replaces its pending rows.
      // status: pending, sent, skipped (its time passed while no process ran, after starts_at).
      await db.schema
        .createTable('live_announcements')
        .addColumn('id', id, pk)
        .addColumn('quiz_id', 'integer', (c) => c.notNull().references('quizzes.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('starts_at', 'bigint', (c) => c.notNull())
        .addColumn('due_at', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('sent_at', 'bigint')
        .addColumn('recipients', 'integer')
        .addUniqueConstraint('live_announcements_once', ['quiz_id', 'kind', 'starts_at'])
        .execute()
      await db.schema
        .createIndex('live_announcements_due')
        .on('live_announcements')
        .columns(['status', 'due_at'])
        .execute()
    },
  }
}
