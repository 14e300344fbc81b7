import { sql } from 'kysely'
import { expect } from 'vitest'
import type { Database } from '../src/db/database'

/** Every byte column (blob, bytea) of every table of the schema, as the database itself lists them. */
async function byteColumns({ db, dialect }: Database) {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ table: string; column: string }>`
      select table_name as "table", column_name as "column" from information_schema.columns
      where table_schema = 'public' and data_type = 'bytea'`.execute(db)
    return rows
  }
  const { rows } = await sql<{ table: string; column: string }>`
    select m.name as "table", c.name as "column" from sqlite_master m, pragma_table_info(m.name) c
    where m.type = 'table' and lower(c.type) = 'blob'`.execute(db)
  return rows
}

/**
 * Files live in the file store, not in the database (docs/decisions/105): every byte column of every table holds
 * nothing but empty values and nulls. Returns the columns it looked at, so a test can see it looked.
 */
export async function expectNoFileBytesInTables(database: Database) {
  const columns = await byteColumns(database)
  const holding: string[] = []
  for (const { table, column } of columns) {
    const { rows } = await sql<{ n: number | string }>`
      select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} is not null
        and length(${sql.ref(column)}) > 0`.execute(database.db)
    if (Number(rows[0]!.n) > 0) holding.push(`${table}.${column}`)
  }
  expect(holding).toEqual([])
  return columns.map(({ table, column }) => `${table}.${column}`)
}
