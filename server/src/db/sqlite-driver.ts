import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

/**
 * The SQLite driver for this Node.js line (docs/decisions/010-sqlite-driver-per-node-line.md).
 * better-sqlite3 13 is built on Node-API and ships its binaries, so no process aborts on Node 24.19+ (nodejs/node
 * issue 65446 kills 12 built from source there), but it crashes on Node 20; Node 20 keeps 12, installed under the
 * npm alias `better-sqlite3-node20`. Both expose the same API, so Kysely's SqliteDialect and our queries see no change.
 */
const require = createRequire(import.meta.url)

export const nodeMajor = Number(process.versions.node.split('.')[0])

export const sqliteDriverPackage = nodeMajor >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20'

export const SQLite: typeof BetterSqlite3 = require(sqliteDriverPackage)

export type SqliteConnection = BetterSqlite3.Database
export type SqliteStatement = BetterSqlite3.Statement
