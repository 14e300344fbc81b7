import path from 'node:path'
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect } from 'kysely'
import pg from 'pg'
import type { Config } from '../config'
import type { PoolStats } from '../lib/metrics'
import { closeExisting, ensurePrivateDir, ensurePrivateFile } from '../lib/private-files'
import { institutePool } from './institute-pool'
import { currentRequestScope, inRequestScope, requestScopePlugin } from './request-scope'
import type { DB } from './schema'
import { SQLite, type SqliteConnection, type SqliteStatement } from './sqlite-driver'

export type Dialect = 'sqlite' | 'postgres'

export interface Database {
  db: Kysely<DB>
  dialect: Dialect
  // All of `work` or none, settled once committed (docs/decisions/003, 021).
  transaction<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T>
  poolStats(): PoolStats
  destroy(): Promise<void>
}

// bigint columns hold epoch milliseconds, far below 2^53: read them as numbers, as SQLite does.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value))

export function createDatabase(config: Config['database']): Database {
  if (config.kind === 'postgres') {
    // At most 10 s for a connection (a database that drops packets would hold it forever); the caller answers 503.
    const pool = new pg.Pool({ connectionString: config.url, max: config.poolSize, connectionTimeoutMillis: 10_000 })
    // Without a listener a connection the database ends (restart, failover) would end the process (docs/decisions/017).
    pool.on('error', () => {})
    pool.on('connect', (client) => client.on('error', () => {}))
    return fromPostgresPool(pool, { preparedStatements: config.preparedStatements })
  }
  if (config.file === ':memory:') return fromSqlite(new SQLite(config.file))
  ensurePrivateDir(path.dirname(config.file))
  ensurePrivateFile(config.file)
  closeExisting([`${config.file}-wal`, `${config.file}-shm`])
  return fromSqlite(new SQLite(config.file), {
    readerFile: process.env.NO_READER ? undefined : config.file,
    // Another process's commit must be seen at once: its learner's next request may come here (decision 085).
    snapshotMs: config.sharedWithOtherProcesses ? 0 : HELD_SNAPSHOT_MS,
  })
}

/** How long the reader keeps one snapshot when this process is the file's only server (decision 085). */
const HELD_SNAPSHOT_MS = 2

const readers = new WeakMap<Kysely<DB>, StatementCache>()

export const isPostgres = (db: Kysely<DB>) => db.getExecutor().adapter instanceof PostgresAdapter

// The hot reads neither wait behind a transaction nor see its rows (docs/decisions/016). Undefined in memory.
export function sqliteReaderOf(db: Kysely<DB>) {
  return readers.get(db)
}

const writers = new WeakMap<Kysely<DB>, StatementCache>()

// Precompiled queries run bare here: Kysely's executor cost more than the hot writes (docs/decisions/021).
export function sqliteTransactionOf(trx: Kysely<DB>) {
  return writers.get(trx)
}

export function fromSqlite(
  connection: SqliteConnection,
  { readerFile, snapshotMs = 0 }: { readerFile?: string; snapshotMs?: number } = {},
): Database {
  connection.pragma('journal_mode = WAL')
  connection.pragma('synchronous = NORMAL')
  connection.pragma('foreign_keys = ON')
  connection.pragma('busy_timeout = 10000')
  const reader = readerFile ? new SQLite(readerFile, { readonly: true }) : undefined
  reader?.pragma('busy_timeout = 10000')
  const readerStatements =
    reader && snapshotMs > 0 ? withHeldSnapshot(withStatementCache(reader), snapshotMs) : undefined
  const statements = readerStatements
    ? endingSnapshotOnCommit(withStatementCache(connection), readerStatements)
    : withStatementCache(connection)
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: statements }), plugins: [requestScopePlugin] })
  const { transaction, poolStats } = groupCommit(db, statements)
  const database: Database = { db, dialect: 'sqlite', transaction, poolStats, destroy: () => db.destroy() }
  if (!reader) return database
  readers.set(db, readerStatements ?? withStatementCache(reader))
  return {
    ...database,
    destroy: async () => {
      await database.destroy()
      reader.close()
    },
  }
}

/** Transactions one batch of a group commit takes at the most: the first of them waits for the rest. */
const GROUP_COMMIT_LIMIT = 128

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

// Group commit, one savepoint per transaction, each answered only after the COMMIT: docs/decisions/016, 021.
function groupCommit(db: Kysely<DB>, statements: StatementCache) {
  type Work = (trx: Kysely<DB>) => Promise<unknown>
  const queue: { work: Work; settle: (outcome: Outcome) => void }[] = []
  let committing = false
  const { connection } = statements
  // Prepared once, not exec()'d and parsed per transaction; named for bench/profile-summary.mjs.
  const run = (sqlText: string) =>
    function runGroupStatement() {
      return statements.prepare(sqlText).run()
    }
  const begin = run('begin immediate')
  const commit = run('commit')
  const rollback = run('rollback')
  const savepoint = run('savepoint grouped')
  const release = run('release grouped')
  const rollbackToSavepoint = run('rollback to grouped')

  async function runAlone(trx: Kysely<DB>, work: Work): Promise<Outcome[]> {
    begin()
    let value: unknown
    try {
      value = await work(trx)
    } catch (error) {
      if (connection.inTransaction) rollback()
      return [{ ok: false, error }]
    }
    commitOrRollBack()
    return [{ ok: true, value }]
  }

  async function runGrouped(trx: Kysely<DB>, group: typeof queue): Promise<Outcome[]> {
    begin()
    const results: Outcome[] = []
    for (const { work } of group) {
      savepoint()
      try {
        results.push({ ok: true, value: await work(trx) })
        release()
      } catch (error) {
        // Some failures (disk full, I/O error) make SQLite roll back the whole transaction: the group is lost.
        if (!connection.inTransaction) throw error
        rollbackToSavepoint()
        release()
        results.push({ ok: false, error })
      }
    }
    commitOrRollBack()
    return results
  }

  function commitOrRollBack() {
    try {
      commit()
    } catch (error) {
      if (connection.inTransaction) rollback()
      throw error
    }
  }

  async function commitGroups() {
    try {
      while (queue.length > 0) {
        const group = queue.splice(0, GROUP_COMMIT_LIMIT)
        const outcomes = await db
          .connection()
          .execute((trx) => {
            writers.set(trx, statements)
            return group.length === 1 ? runAlone(trx, group[0]!.work) : runGrouped(trx, group)
          })
          .catch((error: unknown) => group.map((): Outcome => ({ ok: false, error })))
        outcomes.forEach((outcome, index) => group[index]!.settle(outcome))
      }
    } finally {
      committing = false
    }
  }

  let asked = 0
  return {
    transaction: <T>(work: (trx: Kysely<DB>) => Promise<T>) =>
      new Promise<T>((resolve, reject) => {
        asked++
        // A group runs in the context of whoever started it: each work keeps its own request's scope (institute).
        const scope = currentRequestScope()
        const scoped: Work = scope ? (trx) => inRequestScope(scope, () => work(trx)) : work
        queue.push({
          work: scoped,
          settle: (outcome) => (outcome.ok ? resolve(outcome.value as T) : reject(outcome.error)),
        })
        if (committing) return
        committing = true
        // After the loop's current turn, so the requests of this turn join the group (docs/decisions/021).
        setImmediate(() => void commitGroups())
      }),
    poolStats: (): PoolStats => ({ size: 1, busy: committing ? 1 : 0, waiting: queue.length, asked }),
  }
}

// Kysely prepares each SQLite statement anew, dearer than running the hot queries; bounded for variable `in` lists.
export type StatementCache = ReturnType<typeof withStatementCache>

function withStatementCache(connection: SqliteConnection, limit = 1000) {
  const statements = new Map<string, SqliteStatement>()
  return {
    connection,
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

/** The reader keeps one snapshot across statements, left when older than `maxAgeMs` or at our commit (decision 085). */
function withHeldSnapshot(statements: StatementCache, maxAgeMs: number) {
  const { connection } = statements
  const begin = connection.prepare('begin')
  const end = connection.prepare('commit')
  let takenAt = 0
  return {
    ...statements,
    prepare(sqlText: string) {
      const statement = statements.prepare(sqlText)
      const now = performance.now()
      if (connection.inTransaction) {
        if (now - takenAt <= maxAgeMs) return statement
        end.run()
      }
      // Deferred: the snapshot is taken by the statement the caller runs next.
      begin.run()
      takenAt = now
      return statement
    },
    endSnapshot() {
      if (connection.inTransaction) end.run()
    },
  }
}

const COMMITS = /^\s*(commit|end)\b/i

/** The writer: a statement that commits (COMMIT, or a write outside a transaction) first ends the reader's snapshot. */
function endingSnapshotOnCommit(
  statements: StatementCache,
  reader: ReturnType<typeof withHeldSnapshot>,
): StatementCache {
  const { connection } = statements
  return {
    ...statements,
    prepare(sqlText: string) {
      const statement = statements.prepare(sqlText)
      // `readonly` is false for a write (a write with RETURNING is also a `reader`) and true for COMMIT itself.
      if (COMMITS.test(sqlText) || (!statement.readonly && !connection.inTransaction)) reader.endSnapshot()
      return statement
    },
  }
}

const statementNames = new Map<string, string>()

export function prepareOnPostgres(sqlText: string) {
  if (!statementNames.has(sqlText)) statementNames.set(sqlText, `precompiled_${statementNames.size + 1}`)
}

// `preparedStatements: false` for a pooler that cannot keep named statements (PgBouncer before 1.21).
export function fromPostgresPool(pool: pg.Pool, { preparedStatements = true } = {}): Database {
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({
      pool: institutePool(pool, { preparedStatements, statementName: (sqlText) => statementNames.get(sqlText) }),
    }),
    plugins: [requestScopePlugin],
  })
  let asked = 0
  return {
    db,
    dialect: 'postgres',
    transaction: (work) => {
      asked++
      return db.transaction().execute(work)
    },
    poolStats: () => ({
      size: pool.options.max ?? 10,
      busy: pool.totalCount - pool.idleCount,
      waiting: pool.waitingCount,
      asked,
    }),
    destroy: () => db.destroy(),
  }
}
