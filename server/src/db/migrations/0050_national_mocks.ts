import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/102: a national mock is the platform's record (the deployment's, no institute's); each institute
// taking part holds its own live quiz copied from it, and the entries of every institute's board meet in a table of
// the deployment's, since row security shows no request another institute's attempts.
export const nationalMocks = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('national_mocks')
        .addColumn('id', id, pk)
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('duration_minutes', 'integer', (c) => c.notNull())
        .addColumn('live_starts_at', 'bigint', (c) => c.notNull())
        .addColumn('live_join_minutes', 'integer', (c) => c.notNull())
        // The paper as posted: create-from-JSON's sections naming platform bank questions.
        .addColumn('sections_json', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('national_takers')
        .addColumn('national_mock_id', 'integer', (c) => c.notNull().references('national_mocks.id'))
        .addColumn('institute_id', 'integer', (c) => c.notNull())
        // The institute's live quiz (ids are the deployment's, so one quiz names one taker).
        .addColumn('quiz_id', 'integer', (c) => c.notNull().unique())
        .addColumn('joined_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('national_takers_pk', ['national_mock_id', 'institute_id'])
        .execute()
      await db.schema
        .createTable('national_entries')
        .addColumn('national_mock_id', 'integer', (c) => c.notNull())
        .addColumn('institute_id', 'integer', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('score_hundredths', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('national_entries_pk', ['national_mock_id', 'institute_id', 'user_id'])
        .execute()
      await db.schema
        .createIndex('national_entries_by_score')
        .on('national_entries')
        .columns(['national_mock_id', 'score_hundredths'])
        .execute()
      // A copy quiz and its copied questions name their mock: kept out of the institute's bank and admin reads.
      await db.schema.alterTable('quizzes').addColumn('national_mock_id', 'integer').execute()
      await db.schema.alterTable('questions').addColumn('national_mock_id', 'integer').execute()
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('questions').dropColumn('national_mock_id').execute()
      await db.schema.alterTable('quizzes').dropColumn('national_mock_id').execute()
      await db.schema.dropTable('national_entries').execute()
      await db.schema.dropTable('national_takers').execute()
      await db.schema.dropTable('national_mocks').execute()
    },
  }
}
