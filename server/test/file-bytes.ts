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

/** Every text column (text, varchar, json) of every table: where a file could hide as base64 or a data: URL. */
async function textColumns({ db, dialect }: Database) {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ table: string; column: string }>`
      select c.table_name as "table", c.column_name as "column" from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
        and c.data_type in ('text', 'character varying', 'json', 'jsonb')`.execute(db)
    return rows
  }
  const { rows } = await sql<{ table: string; column: string }>`
    select m.name as "table", c.name as "column" from sqlite_master m, pragma_table_info(m.name) c
    where m.type = 'table' and m.name not like 'sqlite_%' and (lower(c.type) like '%text%' or lower(c.type) like '%char%'
      or lower(c.type) = 'json')`.execute(db)
  return rows
}

/** How an image's first bytes read in base64 (JPEG, PNG, WebP's RIFF, GIF, PDF) or as a data: URL. */
const IMAGE_TEXT = ['data:image/', '/9j/4', 'iVBORw0KGgo', 'UklGR', 'R0lGOD', 'JVBERi0']

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
  // Nor in any text column as base64 or a data: URL (an import's rows name pictures by URL, never by bytes).
  const texts = await textColumns(database)
  for (const { table, column } of texts) {
    const { rows } = await sql<{ n: number | string }>`
      select count(*) as n from ${sql.table(table)} where ${sql.join(
        // Case-sensitive, unlike SQLite's LIKE: base64 is.
        IMAGE_TEXT.map((start) =>
          database.dialect === 'postgres'
            ? sql`strpos(cast(${sql.ref(column)} as text), ${start}) > 0`
            : sql`instr(${sql.ref(column)}, ${start}) > 0`,
        ),
        sql` or `,
      )}`.execute(database.db)
    if (Number(rows[0]!.n) > 0) holding.push(`${table}.${column}`)
  }
  expect(holding).toEqual([])
  expect(texts.length).toBeGreaterThan(0)
  return columns.map(({ table, column }) => `${table}.${column}`)
}
