// Times create-from-JSON with a 100-question paste carrying 300 SVGs, on a fresh SQLite file or on the
// PostgreSQL database named by BENCH_DATABASE_URL (it must exist; the script adds tables and rows to it).
//   cd server && npx tsx bench/import.bench.ts
//   cd server && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench npx tsx bench/import.bench.ts
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildApp } from '../src/app'
import { createTokenSigner } from '../src/http/tokens'
import { loadConfig } from '../src/config'
import { createDatabase } from '../src/db/database'
import { migrateToLatest } from '../src/db/migrate'
import { systemClock } from '../src/lib/clock'

const postgresUrl = process.env.BENCH_DATABASE_URL
const dataDir = mkdtempSync(path.join(tmpdir(), 'quiz-bench-'))
const config = loadConfig(
  { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, JWT_SECRET: 'bench-secret-bench-secret-bench-secret' },
  { persistSecret: false },
)
const database = createDatabase(
  postgresUrl
    ? { kind: 'postgres', url: postgresUrl, poolSize: 5 }
    : { kind: 'sqlite', file: path.join(dataDir, 'quiz.db') },
)
await migrateToLatest(database)
const tokens = createTokenSigner({ secret: config.jwtSecret, accessTtl: 900, refreshTtl: 900, clock: systemClock })
const sms = { send: async () => {} }
const app = await buildApp({ config, database, clock: systemClock, sms, tokens }, { logger: false })

const name = `bench${Date.now()}`
const admin = await database.db
  .insertInto('users')
  .values({
    username: name,
    username_key: name,
    phone_number: String(Date.now()).slice(-10),
    password_hash: '-',
    created_at: Date.now(),
  })
  .returning(['id', 'username'])
  .executeTakeFirstOrThrow()
await database.db
  .insertInto('memberships')
  .values({ user_id: admin.id, institute_id: 1, is_admin: 1, created_at: Date.now() })
  .execute()
const authorization = `Bearer ${await tokens.signAccess({ id: admin.id, username: admin.username, is_admin: true })}`

// A 3.7 KB figure (gradient, 40 curves, Devanagari label) per question and two small option images.
const figure = (i: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><defs><linearGradient id="g${i}"><stop offset="0" stop-color="#fc0"/><stop offset="1" stop-color="#f60"/></linearGradient></defs>` +
  Array.from(
    { length: 40 },
    (_, k) =>
      `<path d="M${k} ${k} C ${k + 10} ${k * 2}, ${k * 3} 40, 90 ${k + 5} S 150 ${k}, 180 ${k + 20}" fill="url(#g${i})" stroke="#333"/>`,
  ).join('') +
  `<text x="10" y="190">चित्र ${i}</text></svg>`
const dot =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><circle cx="20" cy="20" r="16" fill="#64b5f6"/></svg>'
const payload = JSON.stringify({
  title: { en: 'Benchmark', ne: 'बेन्चमार्क' },
  questions: Array.from({ length: 100 }, (_, i) => ({
    text: { en: `Question ${i + 1}`, ne: `प्रश्न ${i + 1}` },
    hint: { en: 'A hint' },
    topic: 'bench',
    image: { svg: figure(i), caption: { en: `Figure ${i + 1}` } },
    options: [0, 1, 2, 3].map((j) => ({
      text: { en: `Option ${j + 1}` },
      is_correct: j === 0,
      image: j < 2 ? { svg: dot } : null,
    })),
  })),
})

console.log(
  `${postgresUrl ? 'PostgreSQL' : 'SQLite'}: 100 questions, 300 SVGs, ${(payload.length / 1024).toFixed(0)} KB`,
)
for (let run = 1; run <= 5; run++) {
  const started = performance.now()
  const response = await app.inject({
    method: 'POST',
    url: '/api/quizzes/create-from-json/',
    headers: { authorization, 'content-type': 'application/json' },
    payload,
  })
  console.log(`run ${run}: ${response.statusCode} in ${(performance.now() - started).toFixed(0)} ms`)
}
await app.close()
await database.destroy()
rmSync(dataDir, { recursive: true, force: true })
