import { type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// docs/decisions/038: live mocks, reminder registrations and announcements sent once.
export const liveMocks = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)

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
