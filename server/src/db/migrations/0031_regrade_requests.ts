import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// docs/decisions/071: regrade requests; a partial unique index keeps one not closed per answer.
export const regradeRequests = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('regrade_requests')
        .addColumn('id', id, pk)
        .addColumn('answer_id', 'integer', (c) => c.notNull().references('written_answers.id').onDelete('cascade'))
        .addColumn('item_id', 'integer', (c) => c.references('rubric_items.id').onDelete('set null'))
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
        .addColumn('response', 'text')
        .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('decided_at', 'bigint')
        .addColumn('settled_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('settled_at', 'bigint')
        .addColumn('old_marks', 'integer')
        .addColumn('new_marks', 'integer')
        .addColumn('closed_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('regrade_requests_answer').on('regrade_requests').column('answer_id').execute()
      await db.schema
        .createIndex('regrade_requests_status')
        .on('regrade_requests')
        .columns(['status', 'created_at'])
        .execute()
      await sql`create unique index regrade_requests_one_open on regrade_requests (answer_id) where closed_at is null`.execute(
        db,
      )
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('regrade_requests').execute()
    },
  }
}
