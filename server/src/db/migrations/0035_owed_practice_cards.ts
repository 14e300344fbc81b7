import { type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// docs/decisions/080: owed practice cards. SQLite: rowid without AUTOINCREMENT, no sqlite_sequence write.
export const owedPracticeCards = (dialect: Dialect): Migration => {
  const { id } = columnTypes(dialect)

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
