import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expectNoFileBytesInTables } from '../../test/file-bytes'
import { dialects } from '../../test/dialects'
import { startLocalS3, type LocalS3 } from '../../test/local-s3'
import { openDatabaseAt } from '../../test/migration-database'
import { expectAllReadable, fillAsBefore } from '../../test/older-files'
import type { FileStore } from '../files'
import { createLocalStore } from '../files/local-store'
import { createS3Store } from '../files/s3-store'
import { migrateToLatest } from './migrate'
import { moveFilesIntoStore, tablesHoldingFiles } from './move-files'

// npm run files:migrate (docs/decisions/112) on a database an older server filled: the rows as the schema before
// migration 0052 had them, bytes in their columns.

describe.each(dialects)('npm run files:migrate on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  let directory: string
  let s3: LocalS3 | undefined
  const storeOf = () => (s3 ? createS3Store(s3.settings) : createLocalStore(directory))

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'quiz-move-files-'))
    if (process.env.TEST_FILE_STORE === 's3') s3 = await startLocalS3()
  })
  afterEach(async () => drop?.())
  afterAll(async () => {
    await s3?.stop()
    await rm(directory, { recursive: true, force: true })
  })

  it('moves every kind of file an older server kept in its rows into the store, in batches; a second run moves none', async () => {
    const opened = await openDatabaseAt(dialect, '0051_institute_indexes')
    drop = opened.drop
    const expected = await fillAsBefore(opened.db, opened.insert)
    await migrateToLatest(opened.database)
    expect((await tablesHoldingFiles(opened.database)).sort()).toEqual([
      'page_images',
      'page_images (phone)',
      'pictures',
      'profile_pictures',
      'scan_photos',
      'sitting_scans',
    ])
    const files = storeOf()
    const batches: number[] = []
    const reports = await moveFilesIntoStore(opened.database, files, {
      batch: 2,
      onBatch: ({ moved }) => batches.push(moved),
    })
    expect(Object.fromEntries(reports.map(({ table, moved }) => [table, moved]))).toEqual({
      pictures: 7,
      page_images: 5,
      'page_images (phone)': 3,
      profile_pictures: 3,
      sitting_scans: 4,
      scan_photos: 4,
    })
    expect(Math.max(...batches)).toBe(2)
    await expectAllReadable(opened.database, files, expected)
    await expectNoFileBytesInTables(opened.database)
    expect(await tablesHoldingFiles(opened.database)).toEqual([])
    // Idempotent: nothing left to move, nothing changed.
    const again = await moveFilesIntoStore(opened.database, files)
    expect(again.every(({ moved }) => moved === 0)).toBe(true)
    await expectAllReadable(opened.database, files, expected)
  })

  it('ends with every row moved once when two runs go at once (two operators, or a run restarted beside another)', async () => {
    const opened = await openDatabaseAt(dialect, '0051_institute_indexes')
    drop = opened.drop
    const expected = await fillAsBefore(opened.db, opened.insert)
    await migrateToLatest(opened.database)
    const files = storeOf()
    const [first, second] = await Promise.all([
      moveFilesIntoStore(opened.database, files, { batch: 1 }),
      moveFilesIntoStore(opened.database, files, { batch: 3 }),
    ])
    const total = (reports: typeof first) => reports.reduce((sum, { moved }) => sum + moved, 0)
    expect(total(first) + total(second)).toBe(26)
    await expectAllReadable(opened.database, files, expected)
    await expectNoFileBytesInTables(opened.database)
  })

  it('leaves a row deleted while it is being moved deleted, and its file not kept', async () => {
    const opened = await openDatabaseAt(dialect, '0051_institute_indexes')
    drop = opened.drop
    await fillAsBefore(opened.db, opened.insert)
    await migrateToLatest(opened.database)
    const files = storeOf()
    // A server removes profile pictures while the run is between its write and its update of them.
    const put = files.put.bind(files)
    const racing: FileStore = {
      ...files,
      put: async (key, data, type) => {
        await put(key, data, type)
        if (key.startsWith('profile-pictures/'))
          await opened.database.db.deleteFrom('profile_pictures').where('data_key', 'is', null).execute()
      },
    }
    const reports = await moveFilesIntoStore(opened.database, racing)
    expect(reports.find(({ table }) => table === 'profile_pictures')!.moved).toBe(0)
    expect(await opened.database.db.selectFrom('profile_pictures').select('id').execute()).toEqual([])
    for (let i = 0; i < 3; i++) expect(await files.exists(`profile-pictures/${`pp${i}`.padEnd(24, 'x')}`)).toBe(false)
  })
})
