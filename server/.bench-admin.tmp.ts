import { buildApp } from './src/app'
import { createTokenSigner } from './src/auth/tokens'
import { loadConfig } from './src/config'
import { createDatabase } from './src/db/database'
import { migrateToLatest } from './src/db/migrate'
import { systemClock } from './src/lib/clock'
const pgUrl = process.env.BENCH_PG
const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), LOG_LEVEL: 'silent', DATA_DIR: '/tmp/bench-admin-data' }, { persistSecret: false })
const database = createDatabase(pgUrl ? { kind: 'postgres', url: pgUrl, poolSize: 5 } : { kind: 'sqlite', file: `/tmp/bench-admin-data/b${Date.now()}.db` })
await migrateToLatest(database)
const tokens = createTokenSigner({ secret: config.jwtSecret, accessTtl: 900, refreshTtl: 9000, clock: systemClock })
const app = await buildApp({ config, database, clock: systemClock, sms: { send: async () => {} } as any, tokens }, { logger: false })
const user = await database.db.insertInto('users').values({ username: `b${Date.now()}`, username_key: `b${Date.now()}`, phone_number: String(Date.now()).slice(-10), password_hash: 'x', is_admin: 1, created_at: 0 }).returning(['id', 'username']).executeTakeFirstOrThrow()
const headers = { authorization: `Bearer ${await tokens.signAccess({ id: user.id, username: user.username, is_admin: true })}` }
const figure = (i: number) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><defs><linearGradient id="g${i}"><stop offset="0" stop-color="#fc0"/><stop offset="1" stop-color="#f60"/></linearGradient></defs>` + Array.from({ length: 40 }, (_, k) => `<path d="M${k} ${k} C ${k + 10} ${k * 2}, ${k * 3} 40, 90 ${k + 5} S 150 ${k}, 180 ${k + 20}" fill="url(#g${i})" stroke="#333"/>`).join('') + `<text x="10" y="190">चित्र ${i}</text></svg>`
const small = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><circle cx="20" cy="20" r="16" fill="#64b5f6"/></svg>'
const payload = { title: { en: 'Bench', ne: 'बेन्च' }, questions: Array.from({ length: 100 }, (_, i) => ({ text: { en: `Question ${i}`, ne: `प्रश्न ${i}` }, hint: { en: 'hint' }, topic: 't', image: { svg: figure(i), caption: { en: 'c' } }, options: [0, 1, 2, 3].map((j) => ({ text: { en: `o${j}` }, is_correct: j === 0, image: j < 2 ? { svg: small } : null })) })) }
const body = JSON.stringify(payload)
console.log('body bytes', body.length, 'figure bytes', figure(1).length)
for (let run = 0; run < 4; run++) {
  const t0 = performance.now()
  const r = await app.inject({ method: 'POST', url: '/api/quizzes/create-from-json/', headers: { ...headers, 'content-type': 'application/json' }, payload: body })
  console.log(pgUrl ? 'postgres' : 'sqlite', 'run', run, r.statusCode, (performance.now() - t0).toFixed(0), 'ms')
}
await app.close()
