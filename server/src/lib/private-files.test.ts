import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createConsoleSender } from '../sms/console-sender'
import { loadConfig } from '../config'
import { createDatabase } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import { backupSqlite } from '../db/sqlite-backup'

const mode = (file: string) => (statSync(file).mode & 0o777).toString(8)

// Under the usual umask (022) files would be readable by every user of the machine: the database, its WAL, the
// backups, the SMS outbox (codes), the JWT secret and the VAPID keys are the server user's alone.
describe('the data folder', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'quiz-private-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  const dataDir = path.join(root, 'data')

  it('is owner-only, with every file in it', async () => {
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
    expect(mode(dataDir)).toBe('700')
    expect(mode(path.join(dataDir, 'jwt-secret'))).toBe('600')
    expect(mode(path.join(dataDir, 'vapid-keys.json'))).toBe('600')

    const database = createDatabase(config.database)
    await migrateToLatest(database)
    const file = path.join(dataDir, 'quiz.db')
    expect(mode(file)).toBe('600')
    expect(mode(`${file}-wal`)).toBe('600')

    const out = path.join(root, 'backup.db')
    await backupSqlite(file, out)
    expect(mode(out)).toBe('600')
    await database.destroy()

    await createConsoleSender(config.sms.outbox, { now: () => 0 }, () => {}).send({
      to: '9800000001',
      text: 'Your code is 123456',
      purpose: 'login',
    })
    expect(mode(config.sms.outbox)).toBe('600')
  })
})
