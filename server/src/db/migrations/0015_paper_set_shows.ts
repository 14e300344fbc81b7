import { type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// docs/decisions/039: a start records one set_shows row for a shared set instead of a row per question.
export const paperSetShows = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('shown_sets')
        .addColumn('id', id, pk)
        .addColumn('set_key', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('shown_set_questions')
        .addColumn('set_id', 'integer', (c) => c.notNull().references('shown_sets.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id'))
        .addPrimaryKeyConstraint('shown_set_questions_pk', ['set_id', 'question_id'])
        .execute()
      await db.schema
        .createTable('set_shows')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('set_id', 'integer', (c) => c.notNull().references('shown_sets.id'))
        .addColumn('shown_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('set_shows_pk', ['user_id', 'set_id'])
        .execute()
    },
  }
}
