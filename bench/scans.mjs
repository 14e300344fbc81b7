// npm run bench:scans: answer sheets through the whole route (API.md "Paper sittings", docs/decisions/055): the
// upload of a 12 MP phone photo read, its photo kept and the paper attempt recorded, one at a time (wall time per
// scan) and four at once (the server process's peak RSS, sampled from /proc every 10 ms, the reads held to
// decodeLimits.atOnce, lib/decode-gate.ts). The built server on SQLite, or on PostgreSQL with BENCH_DATABASE_URL.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sheetSecret } from '../server/src/sittings/sittings.service.ts'
import { decodeLimits } from '../server/src/lib/decode-gate.ts'
import { markedSheetSvg, photographSheet } from '../server/test/fixtures/sheet-photos.ts'
import { call, quizJson, startServer } from './lib.mjs'

const QUESTIONS = 100
const LEARNERS = 8
// Fixed, so that the photos kept on disk carry QR codes this server signs (its first sitting is sitting 1).
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-01'
const SITTING = 1

// The photos are made by a child process and kept on disk, so that their making leaves nothing in this one's memory.
// Learner i is user i + 2 (the admin is user 1): their sheets' codes name them (docs/decisions/061).
const photoDir = '/tmp/quiz-bench-scans/photos-named'
const learnerId = (i) => i + 2
if (process.argv[2] === 'make') {
  const secret = sheetSecret(JWT_SECRET)
  const optionCounts = Array(QUESTIONS).fill(4)
  mkdirSync(photoDir, { recursive: true })
  for (let i = 0; i < LEARNERS; i++) {
    const marks = optionCounts.map((_, question) => ({ question, option: (question * (i + 1)) % 4, style: 'pen' }))
    const spec = {
      secret,
      sittingId: SITTING,
      labels: 'latin',
      optionCounts,
      holder: { kind: 'roster', learnerName: `Learner ${i}`, rollNumber: i + 1, set: 'A' },
      learnerId: learnerId(i),
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
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'make'], {
    stdio: 'inherit',
  })
}
const photos = Array.from({ length: LEARNERS }, (_, i) => readFileSync(path.join(photoDir, `${i}.jpg`)))

// MALLOC_ARENA_MAX passes through to the server, 2 unless set as `npm start` does (docs/operations.md "Memory").
const server = await startServer({ env: { JWT_SECRET } })
const admin = await server.seed({
  admin: 'benchadmin',
  phone: '9700000000',
  learners: LEARNERS,
  prefix: 'bench',
  password: 'Bench-pass-2026',
})
const rss = () => Object.values(server.rss())[0] ?? 0
const idle = rss()
const quizId = await server.createQuiz(admin, quizJson(QUESTIONS, 'Paper mock'))
const created = await call(server.baseUrl, 'POST', `/api/admin/quizzes/${quizId}/sittings/`, {
  token: admin,
  body: { held_at: new Date().toISOString() },
})
if (created.body.id !== SITTING) throw new Error(`sitting: ${created.status} ${JSON.stringify(created.body)}`)
const rostered = await call(server.baseUrl, 'PUT', `/api/admin/sittings/${SITTING}/roster/`, {
  token: admin,
  body: { learners: Array.from({ length: LEARNERS }, (_, i) => ({ username: `bench${i + 1}` })) },
})
if (rostered.status !== 200) throw new Error(`roster: ${rostered.status} ${JSON.stringify(rostered.body)}`)
if (rostered.body.roster.some((entry, i) => entry.user.id !== learnerId(i)))
  throw new Error(`the sheets name other learners than the roster: ${JSON.stringify(rostered.body)}`)

async function upload(photo) {
  const started = performance.now()
  const body = new FormData()
  body.append('image', new Blob([photo], { type: 'image/jpeg' }), 'sheet.jpg')
  const response = await fetch(`${server.baseUrl}/api/admin/sittings/${SITTING}/scans/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}` },
    body,
  })
  return { ms: performance.now() - started, status: response.status, body: await response.json() }
}

const one = []
for (const photo of photos.slice(0, 4)) one.push(await upload(photo))
const times = one.map((scan) => scan.ms).sort((a, b) => a - b)
console.log(
  `one at a time: ${one.map((scan) => `${scan.status} ${scan.body.status ?? scan.body.code}`).join(', ')}; ` +
    `wall ms per scan: ${times.map((ms) => ms.toFixed(0)).join(', ')}`,
)

const baseline = rss()
let peak = baseline
const sampler = setInterval(() => (peak = Math.max(peak, rss())), 10)
const started = performance.now()
const four = await Promise.all(photos.slice(4, 8).map(upload))
const wall = performance.now() - started
clearInterval(sampler)
console.log(
  `four at once (decodes at once ${decodeLimits.atOnce}): ${four.map((scan) => `${scan.status} ${scan.body.status ?? scan.body.code}`).join(', ')}; ` +
    `wall ${wall.toFixed(0)} ms; the server's RSS ${idle} MB idle, ${baseline} MB before, peak ${peak} MB (budget under 400 MB)`,
)
console.log(`database: ${server.dialect}`)
await server.stop()
