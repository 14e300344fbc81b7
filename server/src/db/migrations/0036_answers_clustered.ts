import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 62 (docs/decisions/087): on SQLite an attempt's answers become one run of one b-tree, `WITHOUT ROWID` on the
// primary key (attempt_id, question_id) it already had. A rowid table kept them in the order they were saved, 1,000
// learners' interleaved, so reading one attempt's 100 answers at a submit went through the key's index to as many
// scattered rows. The rows and the key are the same; PostgreSQL, whose tables have no such order, is left as it is.
export const answersClustered = (dialect: Dialect): Migration => {
  const recreate = async (db: Kysely<unknown>, withoutRowid: boolean) => {
    await db.schema
      .createTable('attempt_answers_new')
      .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
      .addColumn('question_id', 'integer', (c) => c.notNull())
      .addColumn('option_id', 'integer')
      .addColumn('saved_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('attempt_answers_pk', ['attempt_id', 'question_id'])
      .$call((table) => (withoutRowid ? table.modifyEnd(sql`without rowid`) : table))
      .execute()
    await sql`insert into attempt_answers_new (attempt_id, question_id, option_id, saved_at)
      select attempt_id, question_id, option_id, saved_at from attempt_answers`.execute(db)
    await db.schema.dropTable('attempt_answers').execute()
    await db.schema.alterTable('attempt_answers_new').renameTo('attempt_answers').execute()
  }

  return {
    async up(db: Kysely<unknown>) {
      if (dialect === 'sqlite') await recreate(db, true)
    },
    async down(db: Kysely<unknown>) {
      if (dialect === 'sqlite') await recreate(db, false)
    },
  }
}
