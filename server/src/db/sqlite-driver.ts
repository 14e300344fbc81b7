import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

// better-sqlite3 13, or 12 as `better-sqlite3-node20` on Node 20, where 13 crashes (docs/decisions/010).
const require = createRequire(import.meta.url)

export const nodeMajor = Number(process.versions.node.split('.')[0])

export const sqliteDriverPackage = nodeMajor >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20'

export const SQLite: typeof BetterSqlite3 = require(sqliteDriverPackage)

export type SqliteConnection = BetterSqlite3.Database
export type SqliteStatement = BetterSqlite3.Statement
