import { closeSync, existsSync, openSync, renameSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { knownMigrationNames } from './migrate'
import { SQLite, type SqliteConnection } from './sqlite-driver'

/** A backup or restore refused for a reason the operator can act on; the message says which. */
export class BackupRefused extends Error {}

export interface BackupSummary {
  file: string
  bytes: number
  users: number
  attempts: number
  migration: string
}

// All pages in one step: one read transaction, so a consistent copy that steady writes cannot keep restarting.
const ALL_PAGES = 0x7fffffff

/** Written beside `out` and renamed once checked, so `out` is either absent or a whole, verified backup. */
export async function backupSqlite(source: string, out: string): Promise<BackupSummary> {
  if (!existsSync(source)) throw new BackupRefused(`There is no database at ${source} to back up.`)
  if (existsSync(out)) throw new BackupRefused(`${out} already exists; choose a new file name for the backup.`)
  if (!existsSync(path.dirname(path.resolve(out))))
    throw new BackupRefused(`The folder ${path.dirname(path.resolve(out))} does not exist.`)
  const partial = `${out}.partial-${process.pid}`
  const connection = new SQLite(source, { fileMustExist: true })
  try {
    connection.pragma('busy_timeout = 10000')
    await copyTo(connection, partial)
    const summary = inspectBackup(partial)
    renameSync(partial, out)
    return { ...summary, file: out }
  } finally {
    connection.close()
    rmSync(partial, { force: true })
  }
}

async function copyTo(connection: SqliteConnection, file: string) {
  // Made owner-only before SQLite writes a page into it: a backup is the whole database.
  closeSync(openSync(file, 'wx', 0o600))
  await connection.backup(file, { progress: () => ALL_PAGES })
  const copy = new SQLite(file, { fileMustExist: true })
  try {
    copy.pragma('journal_mode = DELETE')
  } finally {
    copy.close()
  }
}

/** Opens a backup read-only and checks it is whole and ours: integrity, our migrations, and what it holds. */
export function inspectBackup(file: string): BackupSummary {
  if (!existsSync(file)) throw new BackupRefused(`There is no file at ${file}.`)
  let connection: SqliteConnection
  try {
    connection = new SQLite(file, { readonly: true, fileMustExist: true })
  } catch (error) {
    throw new BackupRefused(`${file} is not a SQLite database: ${(error as Error).message}`)
  }
  try {
    const check = readOrRefuse(file, () => connection.pragma('quick_check', { simple: true }))
    if (check !== 'ok') throw new BackupRefused(`${file} is damaged (SQLite quick_check: ${String(check)}).`)
    const applied = readOrRefuse(file, () =>
      connection.prepare('select name from kysely_migration order by name').pluck().all(),
    ) as string[]
    const known = new Set(knownMigrationNames)
    const unknown = applied.filter((name) => !known.has(name))
    if (unknown.length > 0)
      throw new BackupRefused(
        `${file} was made by a newer version of the server (migrations ${unknown.join(', ')}); restore it with that version.`,
      )
    const count = (table: string) => connection.prepare(`select count(*) from ${table}`).pluck().get() as number
    return {
      file,
      bytes: statSync(file).size,
      users: count('users'),
      attempts: count('attempts'),
      migration: applied.at(-1) ?? 'none',
    }
  } finally {
    connection.close()
  }
}

function readOrRefuse<T>(file: string, read: () => T): T {
  try {
    return read()
  } catch (error) {
    throw new BackupRefused(`${file} is not a backup of this server's database: ${(error as Error).message}`)
  }
}

// WAL: every open connection holds a shared lock, so SQLITE_BUSY while `target` is open; backup API, no stale -wal.
export async function restoreSqlite(
  from: string,
  target: string,
  now: Date,
): Promise<{ restored: BackupSummary; previous?: string }> {
  const restored = inspectBackup(from)
  if (path.resolve(from) === path.resolve(target)) throw new BackupRefused('The backup is the database itself.')
  let previous: string | undefined
  if (existsSync(target)) {
    const live = new SQLite(target, { fileMustExist: true })
    try {
      live.pragma('busy_timeout = 0')
      live.pragma('locking_mode = EXCLUSIVE')
      try {
        live.exec('begin exclusive')
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error
        throw new BackupRefused(
          `A server (or another program) has ${target} open. Stop every server using it, then restore again.`,
        )
      }
      live.exec('commit')
      previous = `${target}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`
      await copyTo(live, previous)
    } finally {
      live.close()
    }
  }
  const source = new SQLite(from, { readonly: true, fileMustExist: true })
  try {
    await source.backup(target, { progress: () => ALL_PAGES })
  } finally {
    source.close()
  }
  return { restored: { ...restored, file: target }, previous }
}
