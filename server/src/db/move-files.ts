import { createHash } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { FileStore } from '../files'
import type { Database } from './database'
import { forEachInstitute } from './institute-jobs'
import type { DB } from './schema'

// `npm run files:migrate` (API.md "Operations", Files; docs/decisions/112): moves the files that rows still hold in
// their byte columns (kept before the file store, migration 0052) into the store, a batch of rows at a time.
//
// Each row: its bytes are written to the store under a name made of the row alone (the same on every run), then the
// row is pointed at it and emptied by an update that only applies while the row still holds those bytes. So:
// - resumable after a kill: a row moved stays moved; one killed between its write and its update is written again
//   under the same name and updated;
// - idempotent: a second run finds no row to move;
// - safe while servers serve: a reader of a row not yet moved reads its bytes, of one moved the file, which is in the
//   store before the update commits; a row deleted or replaced meanwhile is not touched, and its file is removed.

const NO_BYTES = Buffer.alloc(0)
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')
const hasBytes = (column: string) => sql<boolean>`${sql.ref(column)} is not null and length(${sql.ref(column)}) > 0`

export interface MoveReport {
  table: string
  moved: number
}

interface Row {
  id: string | number
  data: Buffer
  type: string
}

interface Kind {
  table: string
  /** The table and column that name the file. */
  keyColumn: [table: keyof DB, column: string]
  /** Scoped per institute (row security on PostgreSQL): visited in each institute's scope. */
  scoped: boolean
  /** A batch of rows still holding bytes, after `after` in key order. */
  next(db: Kysely<DB>, after: string | number, limit: number): Promise<Row[]>
  keyOf(row: Row): string
  /** Points the row at its file and empties its bytes if it still holds no file; 1 if it did. */
  record(db: Kysely<DB>, row: Row, key: string): Promise<number>
}

const changed = (result: { numUpdatedRows: bigint }) => Number(result.numUpdatedRows)

/** The five tables of files, each with the name its files get (as the upload code names them, decision 105). */
function kinds(): Kind[] {
  return [
    {
      table: 'pictures',
      keyColumn: ['pictures', 'data_key'],
      scoped: false,
      next: async (db, after, limit) =>
        (
          await db
            .selectFrom('pictures')
            .select(['hash as id', 'data'])
            .where('data_key', 'is', null)
            .where(hasBytes('data'))
            .where('hash', '>', String(after))
            .orderBy('hash')
            .limit(limit)
            .execute()
        ).map((row) => ({ id: row.id, data: row.data, type: 'image/webp' })),
      keyOf: (row) => `pictures/${row.id}`,
      record: async (db, row, key) =>
        changed(
          await db
            .updateTable('pictures')
            .set({ data: NO_BYTES, data_key: key, data_size: row.data.length })
            .where('hash', '=', String(row.id))
            .where('data_key', 'is', null)
            .executeTakeFirst(),
        ),
    },
    {
      table: 'page_images',
      keyColumn: ['page_images', 'data_key'],
      scoped: false,
      next: async (db, after, limit) =>
        (
          await db
            .selectFrom('page_images')
            .select(['hash as id', 'data', 'content_type'])
            .where('data_key', 'is', null)
            .where(hasBytes('data'))
            .where('hash', '>', String(after))
            .orderBy('hash')
            .limit(limit)
            .execute()
        ).map((row) => ({ id: row.id, data: row.data, type: row.content_type })),
      keyOf: (row) => `pages/${row.id}`,
      record: async (db, row, key) =>
        changed(
          await db
            .updateTable('page_images')
            .set({ data: NO_BYTES, data_key: key, data_size: row.data.length })
            .where('hash', '=', String(row.id))
            .where('data_key', 'is', null)
            .executeTakeFirst(),
        ),
    },
    {
      table: 'page_images (phone)',
      keyColumn: ['page_images', 'phone_key'],
      scoped: false,
      next: async (db, after, limit) =>
        (
          await db
            .selectFrom('page_images')
            .select(['hash as id', 'phone_data'])
            .where('phone_key', 'is', null)
            .where(hasBytes('phone_data'))
            .where('hash', '>', String(after))
            .orderBy('hash')
            .limit(limit)
            .execute()
        ).map((row) => ({ id: row.id, data: row.phone_data!, type: 'image/webp' })),
      keyOf: (row) => `pages/${row.id}-phone`,
      record: async (db, row, key) =>
        changed(
          await db
            .updateTable('page_images')
            .set({ phone_data: null, phone_key: key, phone_size: row.data.length })
            .where('hash', '=', String(row.id))
            .where('phone_key', 'is', null)
            .executeTakeFirst(),
        ),
    },
    {
      table: 'profile_pictures',
      keyColumn: ['profile_pictures', 'data_key'],
      scoped: false,
      next: async (db, after, limit) =>
        (
          await db
            .selectFrom('profile_pictures')
            .select(['id', 'data', 'content_type'])
            .where('data_key', 'is', null)
            .where(hasBytes('data'))
            .where('id', '>', String(after))
            .orderBy('id')
            .limit(limit)
            .execute()
        ).map((row) => ({ id: row.id, data: row.data, type: row.content_type })),
      keyOf: (row) => `profile-pictures/${row.id}`,
      record: async (db, row, key) =>
        changed(
          await db
            .updateTable('profile_pictures')
            .set({ data: NO_BYTES, data_key: key, data_size: row.data.length, data_hash: sha256(row.data) })
            .where('id', '=', String(row.id))
            .where('data_key', 'is', null)
            .executeTakeFirst(),
        ),
    },
    ...(['sitting_scans', 'scan_photos'] as const).map((table): Kind => ({
      table,
      keyColumn: [table, 'photo_key'],
      scoped: true,
      next: async (db, after, limit) =>
        (
          await db
            .selectFrom(table)
            .select(['id', 'photo', 'photo_type'])
            .where('photo_key', 'is', null)
            .where(hasBytes('photo'))
            .where('id', '>', Number(after))
            .orderBy('id')
            .limit(limit)
            .execute()
        ).map((row) => ({ id: row.id, data: row.photo, type: row.photo_type })),
      // One file per row, named by the row: a scan's earlier photos (scan_photos) get their own.
      keyOf: (row) => `scans/${sha256(row.data)}-${table === 'sitting_scans' ? 's' : 'p'}${row.id}`,
      record: async (db, row, key) =>
        changed(
          await db
            .updateTable(table)
            .set({ photo: NO_BYTES, photo_key: key, photo_size: row.data.length, photo_hash: sha256(row.data) })
            .where('id', '=', Number(row.id))
            .where('photo_key', 'is', null)
            .executeTakeFirst(),
        ),
    })),
  ]
}

/** Whether any row of the kind's table names the file: one left by a row deleted meanwhile is removed. */
async function named(db: Kysely<DB>, kind: Kind, key: string): Promise<boolean> {
  const [table, column] = kind.keyColumn
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}
    where ${sql.ref(column)} = ${key}`.execute(db)
  return Number(rows[0]!.n) > 0
}

/**
 * Moves every file the database still holds into `files`, `batch` rows at a time, each row in its own short
 * statement (no lock held while the store writes). `onBatch` hears each batch's count, for the command's progress.
 */
export async function moveFilesIntoStore(
  database: Database,
  files: FileStore,
  { batch = 100, onBatch = (_report: MoveReport) => {} } = {},
): Promise<MoveReport[]> {
  const reports: MoveReport[] = []
  for (const kind of kinds()) {
    const moveAll = async () => {
      let moved = 0
      for (let after: string | number = kind.scoped ? 0 : ''; ;) {
        const rows = await kind.next(database.db, after, batch)
        if (rows.length === 0) return moved
        after = rows.at(-1)!.id
        let movedNow = 0
        for (const row of rows) {
          const key = kind.keyOf(row)
          await files.put(key, row.data, row.type)
          if ((await kind.record(database.db, row, key)) > 0) movedNow++
          // Deleted or moved by another run meanwhile: a file no row names goes again.
          else if (!(await named(database.db, kind, key))) await files.delete(key).catch(() => {})
        }
        moved += movedNow
        onBatch({ table: kind.table, moved: movedNow })
      }
    }
    const counts = kind.scoped ? await forEachInstitute(database, 'files:migrate', moveAll) : [await moveAll()]
    reports.push({ table: kind.table, moved: counts.reduce((a, b) => a + b, 0) })
  }
  return reports
}

/** The tables whose rows still hold some file's bytes (none once all are moved). */
export async function tablesHoldingFiles(database: Database): Promise<string[]> {
  const holding: string[] = []
  for (const kind of kinds()) {
    const any = async () => (await kind.next(database.db, kind.scoped ? 0 : '', 1)).length > 0
    const found = kind.scoped ? await forEachInstitute(database, 'files:migrate', any) : [await any()]
    if (found.some(Boolean)) holding.push(kind.table)
  }
  return holding
}
