import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import autocannon from 'autocannon'
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
let ci = 0
const run = (title: string, opts: any) => new Promise<void>((resolve) => {
  ci = 0
  autocannon({ url, connections: 50, duration: Number(process.env.D ?? 5), setupClient: (c: any) => c.setHeaders({ authorization: auth[ci++ % auth.length], 'content-type': 'application/json' }), ...opts }, (_e: any, r: any) => {
    console.log(title, 'req/s', Math.round(r.requests.average), 'p50', r.latency.p50, 'p99', r.latency.p99, 'errors', r.errors + r.timeouts + r.non2xx)
    resolve()
  })
})
const only = process.env.ONLY
if (!only || only === 'health') await run('health', { requests: [{ method: 'GET', path: '/api/health' }] })
if (!only || only === 'results') await run('results', { requests: [{ method: 'GET', path: '/api/results/' }] })
if (!only || only === 'list') await run('list', { requests: [{ method: 'GET', path: '/api/quizzes/' }] })
let n = 0
if (!only || only === 'question') await run('question', { requests: [{ method: 'GET', setupRequest: (r: any) => ({ ...r, path: `/api/quizzes/${small.quiz.id}/question/${(n++ % 20) + 1}/` }) }] })
let k = 0
if (!only || only === 'save') await run('save', { requests: [{ method: 'PUT', setupRequest: (r: any) => { const i = k++ % 20; return { ...r, path: `/api/quizzes/${small.quiz.id}/answers/`, body: JSON.stringify({ answers: { [small.questionIds[i]!]: small.correctOptionIds[i] } }) } } }] })
await app.close()
process.exit(0)
