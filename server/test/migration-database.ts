import pg from 'pg'
import { fromPostgresPool, fromSqlite, type Database, type Dialect } from '../src/db/database'
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
