// npm run bench:scans: answer sheets through the whole route (API.md "Paper sittings", docs/decisions/055): the
// upload of a 12 MP phone photo read, its photo kept and the paper attempt recorded, one at a time (wall time per
// scan) and four at once (peak RSS of the process, the reads held to READS_AT_ONCE). In process, on SQLite in memory.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../server/src/app.ts'
import { loadConfig } from '../server/src/config.ts'
import { fromSqlite } from '../server/src/db/database.ts'
import { migrateToLatest } from '../server/src/db/migrate.ts'
import { SQLite } from '../server/src/db/sqlite-driver.ts'
import { createTokenSigner } from '../server/src/http/tokens.ts'
import { systemClock } from '../server/src/lib/clock.ts'
import { sheetSecret } from '../server/src/sittings/sittings.service.ts'
import { READS_AT_ONCE } from '../server/src/sittings/scans.service.ts'
import { bearerFor, createQuiz, createUser } from '../server/test/factories.ts'
import { markedSheetSvg, photographSheet } from '../server/test/fixtures/sheet-photos.ts'
import { MemorySms } from '../server/test/memory-sms.ts'

const QUESTIONS = 100
const LEARNERS = 8
const config = loadConfig(
  {
    NODE_ENV: 'test',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/quiz-bench-scans',
  },
  { persistSecret: false },
)
const database = fromSqlite(new SQLite(':memory:'))
await migrateToLatest(database)
const tokens = createTokenSigner({
  secret: config.jwtSecret,
  accessTtl: config.accessTokenTtl,
  refreshTtl: config.refreshTokenTtl,
  clock: systemClock,
})
const app = await buildApp({ config, database, clock: systemClock, sms: new MemorySms(), tokens }, { logger: false })
await app.ready()

const admin = await bearerFor(tokens, await createUser(database, { is_admin: 1, username: 'bench-admin' }))
const { quiz } = await createQuiz(database, {}, { questionCount: QUESTIONS })
const created = await app.inject({
  method: 'POST',
  url: `/api/admin/quizzes/${quiz.id}/sittings/`,
  headers: admin,
  payload: { held_at: new Date().toISOString() },
})
const sittingId = created.json().id
const learners = []
for (let i = 0; i < LEARNERS; i++) learners.push(await createUser(database, { username: `bench${i}` }))
await app.inject({
  method: 'PUT',
  url: `/api/admin/sittings/${sittingId}/roster/`,
  headers: admin,
  payload: { learners: learners.map((learner) => ({ username: learner.username })) },
})

// The photos are made by a child process and kept on disk, so that their making leaves nothing in this one's memory.
const photoDir = '/tmp/quiz-bench-scans/photos'
if (process.argv[2] === 'make') {
  const secret = sheetSecret(config.jwtSecret)
  const optionCounts = Array(QUESTIONS).fill(4)
  mkdirSync(photoDir, { recursive: true })
  for (let i = 0; i < LEARNERS; i++) {
    const marks = optionCounts.map((_, question) => ({ question, option: (question * (i + 1)) % 4, style: 'pen' }))
    const spec = {
      secret,
      sittingId: Number(process.argv[3]),
      labels: 'latin',
      optionCounts,
      holder: { kind: 'roster', learnerName: `Learner ${i}`, rollNumber: i + 1, set: 'A' },
      marks,
    }
    const photo = await photographSheet(markedSheetSvg(spec, i + 1), {
      seed: i + 1,
      megapixels: 12,
      fill: 0.8,
      tiltDeg: 10,
      rotation: (i % 4) * 90,
      smallAngleDeg: 3,
      light: 'gradient',
      blurSigma: 0.5,
      jpegQuality: 80,
    })
    writeFileSync(path.join(photoDir, `${i}.jpg`), photo)
  }
  process.exit(0)
}
if (!existsSync(path.join(photoDir, `${LEARNERS - 1}.jpg`))) {
  console.log(`making ${LEARNERS} photos of 12 MP in ${photoDir} ...`)
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'make', String(sittingId)], {
    stdio: 'inherit',
  })
}
const photos = Array.from({ length: LEARNERS }, (_, i) => readFileSync(path.join(photoDir, `${i}.jpg`)))

function form(photo) {
  const boundary = '----bench'
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="sheet.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`
  return {
    headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([Buffer.from(head), photo, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  }
}
async function upload(photo) {
  const started = performance.now()
  const response = await app.inject({ method: 'POST', url: `/api/admin/sittings/${sittingId}/scans/`, ...form(photo) })
  return { ms: performance.now() - started, status: response.statusCode, body: response.json() }
}

const one = []
for (const photo of photos.slice(0, 4)) one.push(await upload(photo))
const times = one.map((scan) => scan.ms).sort((a, b) => a - b)
console.log(
  `one at a time: ${one.map((scan) => `${scan.status} ${scan.body.status ?? scan.body.code}`).join(', ')}; ` +
    `wall ms per scan: ${times.map((ms) => ms.toFixed(0)).join(', ')}`,
)

global.gc?.()
const baseline = process.memoryUsage().rss
let peak = baseline
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
const started = performance.now()
const four = await Promise.all(photos.slice(4, 8).map(upload))
const wall = performance.now() - started
clearInterval(sampler)
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0)
console.log(
  `four at once (READS_AT_ONCE ${READS_AT_ONCE}): ${four.map((scan) => `${scan.status} ${scan.body.status ?? scan.body.code}`).join(', ')}; ` +
    `wall ${wall.toFixed(0)} ms; RSS before ${mb(baseline)} MB, peak ${mb(peak)} MB`,
)
await app.close()
await database.destroy()
