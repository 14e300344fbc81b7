import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../test/cli-process'
import { expectNoFileBytesInTables } from '../../test/file-bytes'
import type { OlderTables } from '../../test/migration-database'
import { expectAllReadable, fillAsBefore } from '../../test/older-files'
import { spawnServerProgram } from '../../test/server-process'
import { fromSqlite } from '../db/database'
import { migrateUpTo } from '../db/migrate'
import { SQLite } from '../db/sqlite-driver'
import { createLocalStore } from '../files/local-store'
import { parseFilesMigrateArgs, UsageError } from './args'

// `npm run files:migrate` as the operator runs it (docs/decisions/112): its own process, on an older server's
// database, killed in the middle and run again.
describe('npm run files:migrate, killed and run again', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'quiz-files-migrate-'))
  })
  afterAll(async () => rm(dir, { recursive: true, force: true }))

  it('parses --batch', () => {
    expect(parseFilesMigrateArgs([])).toEqual({ batch: 100 })
    expect(parseFilesMigrateArgs(['--batch', '25'])).toEqual({ batch: 25 })
    for (const bad of [['--batch', '0'], ['--batch', 'x'], ['--batch', '10001'], ['--other']])
      expect(() => parseFilesMigrateArgs(bad)).toThrow(UsageError)
  })

  it('moves what the killed run had not, and says no table holds a file any more', async () => {
    // A database of before the file store (migration 0051), filled as that server did.
    const file = path.join(dir, 'quiz.db')
    const older = fromSqlite(new SQLite(file))
    await migrateUpTo(older, '0051_institute_indexes')
    const db = older.db as unknown as OlderTables
    const insert = async (table: string, values: Record<string, unknown>) =>
      Number((await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow()).id)
    const expected = await fillAsBefore(db, insert)
    await older.destroy()

    // Killed (SIGKILL, no goodbye) once it has moved a few rows, one at a time.
    const child = spawnServerProgram('cli/files-migrate', ['--batch', '1'], { DATA_DIR: dir })
    let output = ''
    const killed = new Promise<void>((resolve) => {
      child.stdout!.on('data', (chunk) => {
        output += chunk
        if ((output.match(/moved 1/g) ?? []).length >= 3) child.kill('SIGKILL')
      })
      child.once('close', () => resolve())
    })
    await killed
    expect(output).toMatch(/pictures: moved 1/)
    expect(output).not.toMatch(/No table holds a file/)

    const again = await runCli('files-migrate', ['--batch', '2'], { DATA_DIR: dir })
    expect(again.stderr).toBe('')
    expect(again).toMatchObject({ status: 0, stdout: expect.stringContaining('No table holds a file any more.') })
    expect(again.stdout).toMatch(/into the local file store/)

    const database = fromSqlite(new SQLite(file))
    try {
      await expectAllReadable(database, createLocalStore(path.join(dir, 'files')), expected)
      await expectNoFileBytesInTables(database)
    } finally {
      await database.destroy()
    }
    // And once more: nothing to move.
    const third = await runCli('files-migrate', [], { DATA_DIR: dir })
    expect(third.stdout).toMatch(/pictures 0, page_images 0, page_images \(phone\) 0, profile_pictures 0/)
  }, 120_000) // two CLI processes, each compiling the server: slow on a busy machine
})
