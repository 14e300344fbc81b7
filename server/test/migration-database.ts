import type { Kysely } from 'kysely'
import pg from 'pg'
import { fromPostgresPool, fromSqlite, type Database, type Dialect } from '../src/db/database'
import { migrateUpTo } from '../src/db/migrate'
import { SQLite } from '../src/db/sqlite-driver'
import { createTestDatabase, dropTestDatabase } from './test-app'

/**
 * An empty database of the dialect, not migrated, for a migration test to bring to an older migration
 * (migrateUpTo), fill as an older server left it, and upgrade; `drop` closes it and removes it.
 */
export async function openEmptyDatabase(dialect: Dialect): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const database = fromSqlite(new SQLite(':memory:'))
    return { database, drop: () => database.destroy() }
  }
  const created = await createTestDatabase('quiz_migration')
  const database = fromPostgresPool(new pg.Pool({ connectionString: created.url, max: 2 }))
  return {
    database,
    drop: async () => {
      await database.destroy()
      await dropTestDatabase(created.name)
    },
  }
}

/** The untyped writes a migration test makes to the tables as an older migration left them. */
export type OlderTables = Kysely<Record<string, Record<string, unknown>>>

/**
 * An empty database of the dialect brought up to `migration` (an older server's database, to fill and upgrade),
 * with `db` typed for the tables as they were then and `insert` resolving to a new row's id.
 */
export async function openDatabaseAt(dialect: Dialect, migration: string) {
  const { database, drop } = await openEmptyDatabase(dialect)
  try {
    await migrateUpTo(database, migration)
  } catch (error) {
    await drop()
    throw error
  }
  const db = database.db as unknown as OlderTables
  const insert = async (table: string, values: Record<string, unknown>) =>
    Number((await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow()).id)
  return { database, db, insert, drop }
}

/** A write the schema must refuse: resolves with the error it failed with. */
export async function refused(write: Promise<unknown>) {
  try {
    await write
  } catch (error) {
    return error
  }
  throw new Error('the write went through')
}
