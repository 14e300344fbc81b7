import { type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// API.md "Paper sittings": sittings with their frozen paper and sets, and scans of their answer sheets.
export const paperSittings = (dialect: Dialect): Migration => {
  const { id, pk, blob } = columnTypes(dialect)

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sittings')
        .addColumn('id', id, pk)
        .addColumn('quiz_id', 'integer', (c) => c.notNull().references('quizzes.id').onDelete('cascade'))
        .addColumn('title_en', 'text', (c) => c.notNull())
        .addColumn('title_ne', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('held_at', 'bigint', (c) => c.notNull())
        .addColumn('option_labels', 'text', (c) => c.notNull().defaultTo('latin'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
        .addColumn('revision_ids', 'text', (c) => c.notNull())
        .addColumn('sections', 'text')
        .addColumn('sets', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('sittings_quiz').on('sittings').column('quiz_id').execute()

      await db.schema
        .createTable('sitting_roster')
        .addColumn('sitting_id', 'integer', (c) => c.notNull().references('sittings.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('roll_number', 'integer', (c) => c.notNull())
        .addColumn('set_letter', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sitting_roster_pk', ['sitting_id', 'roll_number'])
        .addUniqueConstraint('sitting_roster_learner', ['sitting_id', 'user_id'])
        .execute()
      await db.schema.createIndex('sitting_roster_user').on('sitting_roster').column('user_id').execute()

      await db.schema
        .createTable('sitting_scans')
        .addColumn('id', id, pk)
        .addColumn('sitting_id', 'integer', (c) => c.notNull().references('sittings.id').onDelete('cascade'))
        .addColumn('sheet', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('roll_number', 'integer')
        .addColumn('set_letter', 'text')
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('answers', 'text', (c) => c.notNull())
        .addColumn('flags', 'text', (c) => c.notNull())
        .addColumn('attempt_id', 'integer', (c) => c.references('attempts.id').onDelete('set null'))
        .addColumn('photo', blob, (c) => c.notNull())
        .addColumn('photo_type', 'text', (c) => c.notNull())
        .addColumn('scanned_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('sitting_scans_sheet', ['sitting_id', 'sheet'])
        .execute()
      await db.schema
        .createIndex('sitting_scans_status')
        .on('sitting_scans')
        .columns(['sitting_id', 'status'])
        .execute()
      await db.schema.createIndex('sitting_scans_attempt').on('sitting_scans').column('attempt_id').execute()

      await db.schema
        .alterTable('attempts')
        .addColumn('mode', 'text', (c) => c.notNull().defaultTo('online'))
        .execute()
      await db.schema
        .alterTable('attempts')
        .addColumn('sitting_id', 'integer', (c) => c.references('sittings.id').onDelete('set null'))
        .execute()
      await db.schema.createIndex('attempts_sitting').on('attempts').column('sitting_id').execute()
    },
  }
}
