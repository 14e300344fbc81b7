import { type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/039: most starts show a shared set of questions (a paper's fixed questions, or fixed and a frozen
// draw: the same for every learner of a paper version), so a start records one set_shows row for the set instead of
// a question_shows row per question. A set is named by a digest of its sorted question ids (set_key), so two
// processes that meet the same set make one row; its questions never change. Only a per-attempt draw's drawn
// questions still go to question_shows, whose rows stay as they are.
export const paperSetShows = (dialect: Dialect): Migration => {
  const id = dialect === 'postgres' ? 'serial' : 'integer'
  const pk = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement())

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('shown_sets')
        .addColumn('id', id, pk)
        .addColumn('set_key', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      // The primary key (set, question) is what a draw joins a learner's sets to their questions by.
      await db.schema
        .createTable('shown_set_questions')
        .addColumn('set_id', 'integer', (c) => c.notNull().references('shown_sets.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id'))
        .addPrimaryKeyConstraint('shown_set_questions_pk', ['set_id', 'question_id'])
        .execute()
      // As question_shows: a learner's removal takes their shows; a question is only ever soft-deleted.
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
