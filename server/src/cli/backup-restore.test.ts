import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { App } from '../app'
import { createDatabase, type Database } from '../db/database'
import { backupSqlite, restoreSqlite } from '../db/sqlite-backup'
import { SQLite } from '../db/sqlite-driver'
import { migrateToLatest } from '../db/migrate'
import { createTokenSigner } from '../http/tokens'
import { systemClock } from '../lib/clock'
import { runCli } from '../../test/cli-process'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { MemorySms } from '../../test/memory-sms'
import { appOn, testConfig } from '../../test/test-app'

/** A server as main.ts builds it, on the SQLite file of `dataDir`, answering in this process. */
async function serverOn(dataDir: string): Promise<{ app: App; database: Database; close: () => Promise<void> }> {
  const config = testConfig({ DATA_DIR: dataDir })
  const database = createDatabase(config.database)
  await migrateToLatest(database)
  const tokens = createTokenSigner({ secret: config.jwtSecret, accessTtl: 3600, refreshTtl: 3600, clock: systemClock })
  return appOn(database, { config, clock: systemClock, sms: new MemorySms(), tokens })
}

const tokens = createTokenSigner({
  secret: testConfig().jwtSecret,
  accessTtl: 3600,
  refreshTtl: 3600,
  clock: systemClock,
})

describe('backup and restore of the SQLite database', () => {
  let scratch: string
  const dir = (name: string) => path.join(scratch, name)
  beforeEach(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'quiz-backup-'))
  })
  afterEach(() => rmSync(scratch, { recursive: true, force: true }))

  it('keeps every answer acknowledged before the backup began, while autosaves go on during it', async () => {
    const server = await serverOn(dir('live'))
    const { quiz, questionIds, correctOptionIds } = await createQuiz(server.database, {}, { questionCount: 60 })
    const learners = await Promise.all(Array.from({ length: 6 }, () => createUser(server.database)))
    const headers = await Promise.all(learners.map((learner) => bearerFor(tokens, learner)))
    for (const header of headers) {
      expect(
        (await server.app.inject({ method: 'GET', url: `/api/quizzes/${quiz.id}/`, headers: header })).statusCode,
      ).toBe(200)
    }

    // Each learner answers questions in order, one autosave each, and keeps saving (its last answer again once it
    // has answered everything) until the backup has finished. An answer is "acknowledged before the backup began"
    // when its 200 arrived before the backup process was started.
    let backupBegan = false
    let backupDone = false
    const ackedBefore = learners.map(() => 0)
    const ackedDuring = learners.map(() => 0)
    const autosaves = headers.map(async (header, l) => {
      for (let step = 0; !backupDone; step++) {
        const i = Math.min(step, questionIds.length - 1)
        const response = await server.app.inject({
          method: 'PUT',
          url: `/api/quizzes/${quiz.id}/answers/`,
          headers: header,
          payload: { answers: { [questionIds[i]!]: correctOptionIds[i] } },
        })
        expect(response.statusCode).toBe(200)
        if (!backupBegan) ackedBefore[l] = i + 1
        else ackedDuring[l]!++
      }
    })
    while (ackedBefore.some((count) => count < 3)) await new Promise((resolve) => setImmediate(resolve))
    backupBegan = true
    const snapshotOfAcked = [...ackedBefore]
    const backup = await runCli('backup', ['--out', dir('exam.db')], { DATA_DIR: dir('live') })
    backupDone = true
    await Promise.all(autosaves)
    await server.close()
    expect(backup).toMatchObject({ status: 0, stdout: expect.stringContaining('integrity ok, 6 users, 6 attempts') })
    // It says which file store to back up beside the database (docs/decisions/105).
    expect(backup.stdout).toMatch(/Files \(pictures, sheet photos, pages\) are in \S+files: copy that folder/)

    // Restored into an empty data folder and served again: each learner's attempt resumes with its answers.
    const restore = await runCli('restore', [dir('exam.db')], { DATA_DIR: dir('restored') })
    expect(restore).toMatchObject({ status: 0, stdout: expect.stringContaining('Restored') })
    const restored = await serverOn(dir('restored'))
    for (const [l, header] of headers.entries()) {
      const resumed = await restored.app.inject({ method: 'GET', url: `/api/quizzes/${quiz.id}/`, headers: header })
      const answers = resumed.json().attempt.answers as Record<string, number>
      const answered = Object.keys(answers).length
      // Every acknowledged answer is there, and the copy is one moment: the first `answered` questions, no gaps.
      expect(answered).toBeGreaterThanOrEqual(snapshotOfAcked[l]!)
      expect(answers).toEqual(
        Object.fromEntries(questionIds.slice(0, answered).map((id, i) => [String(id), correctOptionIds[i]])),
      )
    }
    await restored.close()
  })

  it('refuses to restore while a server has the database open, and restores once it has stopped', async () => {
    const server = await serverOn(dir('live'))
    const { quiz } = await createQuiz(server.database, { title_en: 'Before the backup' })
    const backup = await runCli('backup', ['--out', dir('backup.db')], { DATA_DIR: dir('live') })
    expect(backup.status).toBe(0)
    await createQuiz(server.database, { title_en: 'After the backup' })

    const refused = await runCli('restore', [dir('backup.db')], { DATA_DIR: dir('live') })
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain('has')
    expect(refused.stderr).toContain('open. Stop every server using it')
    const titles = await server.database.db.selectFrom('quizzes').select('title_en').orderBy('id').execute()
    expect(titles.map((row) => row.title_en)).toEqual(['Before the backup', 'After the backup'])
    await server.close()

    const restore = await runCli('restore', [dir('backup.db')], { DATA_DIR: dir('live') })
    expect(restore.status).toBe(0)
    const kept = readdirSync(dir('live')).filter((name) => name.startsWith('quiz.db.before-restore-'))
    expect(kept).toHaveLength(1)
    expect(restore.stdout).toContain(kept[0])
    const after = await serverOn(dir('live'))
    const rows = await after.database.db.selectFrom('quizzes').select(['id', 'title_en']).execute()
    expect(rows).toEqual([{ id: quiz.id, title_en: 'Before the backup' }])
    await after.close()
  })

  it('refuses a backup over an existing file, a file that is not a backup, or one from a newer server', async () => {
    const server = await serverOn(dir('live'))
    await server.close()
    const live = dir('live/quiz.db')
    await backupSqlite(live, dir('one.db'))
    await expect(backupSqlite(live, dir('one.db'))).rejects.toThrow(/already exists/)
    await expect(restoreSqlite(path.join(import.meta.dirname, 'args.ts'), live, new Date())).rejects.toThrow(
      /is not a backup/,
    )

    const newer = new SQLite(dir('one.db'))
    newer.prepare(`insert into kysely_migration (name, timestamp) values ('9999_from_the_future', 'now')`).run()
    newer.close()
    await expect(restoreSqlite(dir('one.db'), live, new Date())).rejects.toThrow(
      /made by a newer version of the server \(migrations 9999_from_the_future\)/,
    )
    expect(readdirSync(dir('live')).filter((name) => name.includes('before-restore'))).toEqual([])
  })

  it('sends the operator to pg_dump when the database is PostgreSQL', async () => {
    const postgres = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', JWT_SECRET: 'j'.repeat(40) }
    expect(await runCli('backup', ['--out', dir('two.db')], { DATA_DIR: dir('live'), ...postgres })).toMatchObject({
      status: 1,
      stderr: expect.stringContaining('back it up with pg_dump'),
    })
    expect(existsSync(dir('two.db'))).toBe(false)
  })
})
