import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import { buildApp } from '../../app'
import { createTokenSigner } from '../../auth/tokens'
import { loadConfig } from '../../config'
import { fromSqlite } from '../../db/database'
import { migrateToLatest } from '../../db/migrate'
import { systemClock } from '../../lib/clock'
import { MemorySms } from '../../../test/memory-sms'
import { createQuiz, createUser } from '../../../test/factories'

const dir = mkdtempSync(path.join(tmpdir(), 'qbench-'))
const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), LOG_LEVEL: 'silent', DATA_DIR: dir, SMS_PROVIDER: 'http', SMS_GATEWAY_URL: 'http://127.0.0.1:1' }, { persistSecret: false })
const database = fromSqlite(new SQLite(path.join(dir, 'q.db')))
await migrateToLatest(database)
const tokens = createTokenSigner({ secret: config.jwtSecret, accessTtl: 3600, refreshTtl: 3600, clock: systemClock })
const app = await buildApp({ config, database, clock: systemClock, sms: new MemorySms(), tokens }, { logger: false })
const small = await createQuiz(database, { start_time: Date.now() - 3600_000 }, { questionCount: 20 })
await createQuiz(database, { start_time: Date.now() - 3600_000 }, { questionCount: 100 })
const users = []
for (let i = 0; i < 50; i++) users.push(await createUser(database))
await app.listen({ port: 0, host: '127.0.0.1' })
const url = `http://127.0.0.1:${(app.server.address() as any).port}`
const auth = await Promise.all(users.map(async (u) => `Bearer ${await tokens.signAccess({ id: u.id, username: u.username, is_admin: false })}`))
for (const a of auth) await fetch(`${url}/api/quizzes/${small.quiz.id}/`, { headers: { authorization: a } })
writeFileSync('/tmp/qbench/info.json', JSON.stringify({ url, auth, quizId: small.quiz.id, questionIds: small.questionIds, correct: small.correctOptionIds }))
console.log('ready')
