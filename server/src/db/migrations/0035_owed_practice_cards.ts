import { type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 62 (docs/decisions/080): a finish writes one row saying which practice cards its attempt owes the learner's
// deck, instead of the cards themselves; a background pass (or the deck's next reader) writes them, in `id` order.
// question_ids: JSON array of the questions to put in box 1, ascending; owed_at: the finish's time, the cards' due
// and updated time. No reference to the attempt: a withdrawn scan's cards stay (decision 056), owed ones too.
// SQLite: the rowid without AUTOINCREMENT, which would write sqlite_sequence on every finish; a new row's id is still
// above every row there, which is all the order of owing needs.
export const owedPracticeCards = (dialect: Dialect): Migration => {
  const id = dialect === 'postgres' ? 'serial' : 'integer'

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('owed_practice_cards')
        .addColumn('id', id, (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('quiz_id', 'integer', (c) => c.notNull())
        .addColumn('question_ids', 'text', (c) => c.notNull())
        .addColumn('owed_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('owed_practice_cards_user')
        .on('owed_practice_cards')
        .columns(['user_id', 'id'])
        .execute()
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('owed_practice_cards').execute()
    },
  }
}
