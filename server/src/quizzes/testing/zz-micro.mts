import { mkdtempSync } from 'node:fs'
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
import { createQuestionPapers } from '../question-papers'
import { createAttemptLifecycle } from '../attempts.service'
import { createQuizService } from '../quizzes.service'
import { listActiveQuizzesForLearner, findQuizWithAttemptInProgress } from '../quizzes.repository'

const dir = mkdtempSync(path.join(tmpdir(), 'qbench-'))
const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), LOG_LEVEL: 'silent', DATA_DIR: dir, SMS_PROVIDER: 'http', SMS_GATEWAY_URL: 'http://127.0.0.1:1' }, { persistSecret: false })
const database = fromSqlite(new SQLite(path.join(dir, 'q.db')))
await migrateToLatest(database)
const tokens = createTokenSigner({ secret: config.jwtSecret, accessTtl: 3600, refreshTtl: 3600, clock: systemClock })
const app = await buildApp({ config, database, clock: systemClock, sms: new MemorySms(), tokens }, { logger: false })
const small = await createQuiz(database, { start_time: Date.now() - 3600_000 }, { questionCount: 20 })
await createQuiz(database, { start_time: Date.now() - 3600_000 }, { questionCount: 100 })
const u = await createUser(database)
const user = { id: u.id, username: u.username, is_admin: false }
const token = await tokens.signAccess(user)
const headers = { authorization: `Bearer ${token}` }
const papers = createQuestionPapers()
const lifecycle = createAttemptLifecycle({ database, clock: systemClock, config, papers })
const svc = createQuizService({ database, clock: systemClock, papers, lifecycle })
await svc.startAttempt(user, small.quiz.id)

async function time(name: string, fn: () => Promise<unknown>, n = 3000) {
  for (let i = 0; i < 300; i++) await fn()
  const c0 = process.cpuUsage()
  for (let i = 0; i < n; i++) await fn()
  const c = process.cpuUsage(c0)
  console.log(name.padEnd(28), ((c.user + c.system) / n).toFixed(1), 'µs cpu')
}
await time('verifyAccess', () => tokens.verifyAccess(token))
await time('sql list query', () => listActiveQuizzesForLearner(database.db, user.id, Date.now()))
await time('sql quiz+attempt', () => findQuizWithAttemptInProgress(database.db, small.quiz.id, user.id))
await time('svc list', () => svc.listQuizzes(user))
await time('svc question', () => svc.getQuestion(user, small.quiz.id, 3))
let k = 0
await time('svc save', () => { const i = k++ % 20; return svc.saveAnswers(user, small.quiz.id, { [small.questionIds[i]!]: small.correctOptionIds[i]! }) })
await time('inject health', () => app.inject({ method: 'GET', url: '/api/health' }))
await time('inject list', () => app.inject({ method: 'GET', url: '/api/quizzes/', headers }))
await time('inject question', () => app.inject({ method: 'GET', url: `/api/quizzes/${small.quiz.id}/question/3/`, headers }))
await time('inject save', () => { const i = k++ % 20; return app.inject({ method: 'PUT', url: `/api/quizzes/${small.quiz.id}/answers/`, headers, payload: { answers: { [small.questionIds[i]!]: small.correctOptionIds[i] } } }) })
process.exit(0)
