import { sql, type CreateTableBuilder, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// docs/decisions/087: on SQLite, answers and question states become WITHOUT ROWID tables; PostgreSQL unchanged.
type Columns = (table: CreateTableBuilder<string, never>) => CreateTableBuilder<string, never>

const tables: Record<string, { columns: Columns; names: string }> = {
  attempt_answers: {
    columns: (table) =>
      table
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull())
        .addColumn('option_id', 'integer')
        .addColumn('saved_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('attempt_answers_pk', ['attempt_id', 'question_id']),
    names: 'attempt_id, question_id, option_id, saved_at',
  },
  attempt_question_states: {
    columns: (table) =>
      table
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull())
        .addColumn('marked', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('visited', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('time_spent', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('attempt_question_states_pk', ['attempt_id', 'question_id']),
    names: 'attempt_id, question_id, marked, visited, time_spent',
  },
}

async function recreate(db: Kysely<unknown>, withoutRowid: boolean) {
  for (const [name, { columns, names }] of Object.entries(tables)) {
    const created = columns(db.schema.createTable(`${name}_new`))
    await (withoutRowid ? created.modifyEnd(sql`without rowid`) : created).execute()
    await sql`insert into ${sql.table(`${name}_new`)} (${sql.raw(names)}) select ${sql.raw(names)} from ${sql.table(name)}`.execute(
      db,
    )
    await db.schema.dropTable(name).execute()
    await db.schema.alterTable(`${name}_new`).renameTo(name).execute()
  }
}

export const answersClustered = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect === 'sqlite') await recreate(db, true)
  },
  async down(db: Kysely<unknown>) {
    if (dialect === 'sqlite') await recreate(db, false)
  },
})
