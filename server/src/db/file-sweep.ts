import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { Config } from '../config'
import type { FileStore } from '../files'
import type { Clock } from '../lib/clock'
import { createJobLoop, type JobLoop } from '../lib/job-loop'
import type { Database } from './database'
import { forEachInstitute } from './institute-jobs'
import type { DB } from './schema'

// The sweep of orphaned files (docs/decisions/112). A file is written before the transaction that records it (decision
// 105); when that transaction fails the upload removes the file again, but a process killed in between, or a delete
// that failed, leaves a file no row names. The sweep removes those, once they are older than GRACE_MS: a file that
// young may belong to an upload whose transaction has not committed yet, or to the same photo being uploaded again
// (a page's name is its content, and a new write renews its time).

export const GRACE_MS = 6 * 3_600_000

type Column = { table: keyof DB; column: string; scoped: boolean }

/** Which columns may name a file of each folder; a folder not listed here is never swept. */
const NAMERS: Record<string, Column[]> = {
  'pictures/': [{ table: 'pictures', column: 'data_key', scoped: false }],
  'pages/': [
    { table: 'page_images', column: 'data_key', scoped: false },
    { table: 'page_images', column: 'phone_key', scoped: false },
  ],
  'profile-pictures/': [{ table: 'profile_pictures', column: 'data_key', scoped: false }],
  'scans/': [
    { table: 'sitting_scans', column: 'photo_key', scoped: true },
    { table: 'scan_photos', column: 'photo_key', scoped: true },
  ],
}

async function namedBy(db: Kysely<DB>, { table, column }: Column, keys: readonly string[]): Promise<string[]> {
  const untyped = db as unknown as Kysely<Record<string, Record<string, string>>>
  const rows = await untyped.selectFrom(table).select(column).where(column, 'in', keys).execute()
  return rows.map((row) => row[column]!)
}

/** Of `keys`, those some row names, in any institute (each institute's scoped rows read in its own scope). */
async function named(database: Database, columns: Column[], keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>()
  for (const column of columns) {
    const lists = column.scoped
      ? await forEachInstitute(database, 'file-sweep', () => namedBy(database.db, column, keys))
      : [await namedBy(database.db, column, keys)]
    for (const list of lists) for (const key of list) found.add(key)
  }
  return found
}

/** Removes the files older than GRACE_MS that no row names; returns how many went. */
export async function sweepOrphanedFiles(database: Database, files: FileStore, now: number): Promise<number> {
  let removed = 0
  for (const [folder, columns] of Object.entries(NAMERS)) {
    for await (const page of files.list(folder)) {
      const old = page.filter((file) => file.modifiedAt < now - GRACE_MS).map((file) => file.key)
      for (let i = 0; i < old.length; i += 500) {
        const part = old.slice(i, i + 500)
        const kept = await named(database, columns, part)
        for (const key of part)
          if (!kept.has(key)) {
            await files.delete(key)
            removed++
          }
      }
    }
  }
  return removed
}

/** Every process runs one (FILE_SWEEP_INTERVAL_MS): two sweeping at once remove the same files, which is harmless. */
export function createFileSweeper(
  {
    database,
    files,
    clock,
    config,
  }: { database: Database; files: FileStore; clock: Clock; config: Pick<Config, 'fileSweepIntervalMs'> },
  log: Pick<FastifyBaseLogger, 'error' | 'info'>,
): JobLoop {
  return createJobLoop(config.fileSweepIntervalMs, async () => {
    try {
      const removed = await sweepOrphanedFiles(database, files, clock.now())
      if (removed > 0) log.info({ removed }, 'files: orphaned files removed from the store')
    } catch (error) {
      log.error({ err: error }, 'files: the sweep failed; tried again next time')
    }
  })
}
