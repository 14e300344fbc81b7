import SQLite from 'better-sqlite3'
import { fromSqlite } from '../../db/database'
import { migrateToLatest } from '../../db/migrate'
import { createQuiz, createUser } from '../../../test/factories'
import { listActiveQuizzesForLearner } from '../quizzes.repository'
import { sql } from 'kysely'
const conn = new SQLite(':memory:')
const database = fromSqlite(conn)
await migrateToLatest(database)
await createQuiz(database, { start_time: Date.now() - 3600_000 }, { questionCount: 20 })
await createQuiz(database, { start_time: Date.now() - 3600_000 }, { questionCount: 100 })
const u = await createUser(database)
const q = database.db.selectFrom('quizzes').selectAll() // placeholder
const compiled = (await import('../quizzes.repository')).listActiveQuizzesForLearner
// Compile manually by intercepting: use kysely's compile through a fake run
const { Kysely } = await import('kysely')
let captured: any
const orig = database.db.getExecutor().executeQuery.bind(database.db.getExecutor())
;(database.db.getExecutor() as any).executeQuery = async (c: any, id: any) => { captured = c; return orig(c, id) }
await listActiveQuizzesForLearner(database.db, u.id, Date.now())
console.log(captured.sql)
console.log(conn.prepare('explain query plan ' + captured.sql).all(...captured.parameters))
const stmt = conn.prepare(captured.sql)
const t0 = performance.now(); for (let i = 0; i < 5000; i++) stmt.all(...captured.parameters); console.log('raw stmt µs', (performance.now() - t0) * 1000 / 5000)
const t1 = performance.now(); for (let i = 0; i < 5000; i++) await listActiveQuizzesForLearner(database.db, u.id, Date.now()); console.log('kysely µs', (performance.now() - t1) * 1000 / 5000)
