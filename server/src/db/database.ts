import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely'
import pg from 'pg'
import type { Config } from '../config'
import type { PoolStats } from '../lib/metrics'
import type { DB } from './schema'
import { SQLite, type SqliteConnection, type SqliteStatement } from './sqlite-driver'

export type Dialect = 'sqlite' | 'postgres'

export interface Database {
  db: Kysely<DB>
  dialect: Dialect
  /**
   * Runs `work` in one write transaction. On SQLite it is `BEGIN IMMEDIATE`: the write lock is taken up
   * front, so two processes on one file queue on busy_timeout instead of failing with SQLITE_BUSY when a
   * read lock would have to be upgraded. On PostgreSQL it is a plain transaction; services lock rows
   * they must serialise on (`forUpdate`).
   */
  transaction<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T>
  /** What /api/metrics reports of the connections (read when scraped). */
  poolStats(): PoolStats
  destroy(): Promise<void>
}

// bigint columns hold epoch milliseconds, far below 2^53: read them as numbers, as SQLite does.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value))

export function createDatabase(config: Config['database']): Database {
  if (config.kind === 'postgres') {
    // A request waits at most 10 s for a connection (a database that drops packets would otherwise hold it forever);
    // the caller then answers 503 (db/errors.ts).
    const pool = new pg.Pool({ connectionString: config.url, max: config.poolSize, connectionTimeoutMillis: 10_000 })
    // A connection the database ends (a restart, a failover, an idle timeout) emits 'error': on the pool while idle,
    // on the client while a request holds it between two queries (inside a transaction). With no listener either
    // event would end the process. The failed query, if any, has its own error (answered 503); the pool drops the
    // broken client when it is released, and the next query opens a new connection, so the server recovers by
    // itself once the database is back.
    pool.on('error', () => {})
    pool.on('connect', (client) => client.on('error', () => {}))
    return fromKysely(new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), 'postgres', () => ({
      size: config.poolSize,
      busy: pool.totalCount - pool.idleCount,
      waiting: pool.waitingCount,
    }))
  }
  if (config.file === ':memory:') return fromSqlite(new SQLite(config.file))
  mkdirSync(path.dirname(config.file), { recursive: true })
  return fromSqlite(new SQLite(config.file), { readerFile: config.file })
}

/** The read-only connection of a SQLite database's root Kysely instance (not of its transactions). */
const readers = new WeakMap<Kysely<DB>, ReturnType<typeof withStatementCache>>()

/**
 * The hot routes' reads (precompiled-query.ts) run as plain prepared statements on a second, read-only connection:
 * on the one shared connection they would wait behind every transaction in progress (Kysely holds the connection
 * across a transaction's awaits), or, bypassing that wait, see its uncommitted rows. In WAL mode a reader sees the
 * last commit and never blocks or waits for the writer. Undefined for an in-memory database, which one connection
 * alone can see; those reads then take Kysely's path.
 */
export function sqliteReaderOf(db: Kysely<DB>) {
  return readers.get(db)
}

export function fromSqlite(connection: SqliteConnection, { readerFile }: { readerFile?: string } = {}): Database {
  connection.pragma('journal_mode = WAL')
  connection.pragma('synchronous = NORMAL')
  connection.pragma('foreign_keys = ON')
  connection.pragma('busy_timeout = 10000')
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) })
  const database = fromKysely(db, 'sqlite')
  if (!readerFile) return database
  const reader = new SQLite(readerFile, { readonly: true })
  reader.pragma('busy_timeout = 10000')
  readers.set(db, withStatementCache(reader))
  return {
    ...database,
    destroy: async () => {
      await database.destroy()
      reader.close()
    },
  }
}

/**
 * Kysely prepares every SQLite statement anew; preparing costs more than running the hot queries. The
 * same SQL text always gets the same prepared statement (better-sqlite3 statements are reusable, and one
 * connection runs one statement at a time). Bounded, so queries with variable `in (...)` lists cannot grow it forever.
 */
function withStatementCache(connection: SqliteConnection, limit = 1000) {
  const statements = new Map<string, SqliteStatement>()
  return {
    close: () => connection.close(),
    prepare(sqlText: string) {
      let statement = statements.get(sqlText)
      if (!statement) {
        statement = connection.prepare(sqlText)
        if (statements.size >= limit) statements.delete(statements.keys().next().value!)
        statements.set(sqlText, statement)
      }
      return statement
    },
  }
}

/**
 * `poolStats` defaults to SQLite's one connection: a single statement runs synchronously, so what can wait for the
 * connection is a transaction holding it across awaits, and what waits behind it.
 */
export function fromKysely(db: Kysely<DB>, dialect: Dialect, poolStats?: () => PoolStats): Database {
  let transactions = 0
  return {
    db,
    dialect,
    transaction:
      dialect === 'postgres'
        ? (work) => db.transaction().execute(work)
        : async (work) => {
            transactions++
            try {
              // One connection per process: holding it makes the work exclusive within this process too.
              return await db.connection().execute(async (connection) => {
                await sql`begin immediate`.execute(connection)
                try {
                  const result = await work(connection)
                  await sql`commit`.execute(connection)
                  return result
                } catch (error) {
                  await sql`rollback`.execute(connection)
                  throw error
                }
              })
            } finally {
              transactions--
            }
          },
    poolStats:
      poolStats ?? (() => ({ size: 1, busy: Math.min(1, transactions), waiting: Math.max(0, transactions - 1) })),
    destroy: () => db.destroy(),
  }
}
