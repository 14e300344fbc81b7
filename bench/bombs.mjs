// npm run bench:bombs: issue 54's picture bombs against the decode gate (docs/decisions/060). The built server on
// SQLite; one learner (or the admin) sends four bomb pictures at once while another learner logs in (argon2, on
// libuv's thread pool like the decodes) and fetches the web app's JavaScript, again and again until the four are
// answered. Printed per step: the bombs' answers and time, the slowest login, file and health answer meanwhile, and
// the server's peak RSS. Budget: logins and files under 2 s, the server under 1 GB.
// The bombs: a 7000 x 7000 progressive JPEG of 2,647 scans (533 KB; 47 s and 300 MB to decode unbounded) and a flat
// 16-bit 7000 x 7000 PNG (300 KB, 294 MB decoded), each written by server/test/fixtures/bomb-images.ts.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { progressiveJpegBomb, sixteenBitPng } from '../server/test/fixtures/bomb-images.ts'
import { call, quizJson, startServer } from './lib.mjs'

const PASSWORD = 'Bench-pass-2026'

// The web app's files: the built ones if there are, else a stand-in of a bundle's size.
const builtWeb = path.resolve(import.meta.dirname, '../web/dist')
let webDist = builtWeb
let script = null
if (!existsSync(builtWeb)) {
  webDist = mkdtempSync(path.join(tmpdir(), 'quiz-bench-web-'))
  mkdirSync(path.join(webDist, 'assets'))
  script = '/assets/index-bench.js'
  writeFileSync(path.join(webDist, 'index.html'), `<!doctype html><script type="module" src="${script}"></script>`)
  writeFileSync(path.join(webDist, script), `export const bench = '${randomBytes(300_000).toString('hex')}'\n`)
}

/** One request with a raw body; resolves {status, ms, text}. */
function send(baseUrl, method, url, { headers = {}, payload } = {}) {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${url}`, {
      method,
      headers: { ...headers, ...(payload ? { 'content-length': payload.length } : {}) },
    })
    req.on('response', (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode, ms: performance.now() - started, text: Buffer.concat(chunks).toString() }),
      )
    })
    req.on('error', reject)
    req.end(payload)
  })
}

function multipart(field, data, filename) {
  const boundary = `----bench-${randomBytes(8).toString('hex')}`
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

console.log('writing the bombs...')
const jpegBomb = progressiveJpegBomb({ width: 7000, height: 7000 })
const pngBomb = await sixteenBitPng(7000, 7000)
const pngUnderCap = await sixteenBitPng(5000, 5000)
console.log(
  `JPEG ${(jpegBomb.length / 1e3).toFixed(0)} KB, 16-bit PNG ${(pngBomb.length / 1e3).toFixed(0)} KB, ` +
    `16-bit 5000 x 5000 PNG ${(pngUnderCap.length / 1e3).toFixed(0)} KB`,
)

const server = await startServer({ env: { WEB_DIST: webDist, RATE_LIMIT_PROFILE_PICTURE_PER_USER_HOUR: '1000' } })
const base = server.baseUrl
try {
  const admin = await server.seed({
    admin: 'benchadmin',
    phone: '9700000000',
    learners: 2,
    prefix: 'learner',
    password: PASSWORD,
  })
  const [sender] = await server.tokensFor(['learner1'])
  if (!script) {
    const html = (await send(base, 'GET', '/')).text
    script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1]
  }
  const quizId = await server.createQuiz(admin, quizJson(1))
  const sitting = await call(base, 'POST', `/api/admin/quizzes/${quizId}/sittings/`, {
    body: { held_at: '2026-11-28T04:15:00.000Z' },
    token: admin,
  })

  const profile = (bytes) => {
    const form = multipart('profile_picture', bytes, 'me.jpg')
    return send(base, 'PUT', '/api/users/profile/', {
      headers: { ...form.headers, authorization: `Bearer ${sender}` },
      payload: form.payload,
    })
  }
  const question = (bytes) => {
    const body = {
      text: { en: 'Which district is this?' },
      image: { picture: `data:image/png;base64,${bytes.toString('base64')}`, caption: { en: 'A map' } },
      options: [
        { text: { en: 'Kaski' }, is_correct: true },
        { text: { en: 'Lalitpur' }, is_correct: false },
      ],
    }
    const payload = Buffer.from(JSON.stringify(body))
    return send(base, 'POST', `/api/admin/quizzes/${quizId}/questions/`, {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
      payload,
    })
  }
  const scan = (bytes) => {
    const form = multipart('image', bytes, 'sheet.jpg')
    return send(base, 'POST', `/api/admin/sittings/${sitting.body.id}/scans/`, {
      headers: { ...form.headers, authorization: `Bearer ${admin}` },
      payload: form.payload,
    })
  }

  const steps = [
    ['profile: 2 JPEG + 2 PNG 7000 x 7000', () => [jpegBomb, pngBomb, jpegBomb, pngBomb].map(profile)],
    ['profile: 4 PNG 16-bit 5000 x 5000', () => [pngUnderCap, pngUnderCap, pngUnderCap, pngUnderCap].map(profile)],
    ['question pictures: 2 JPEG + 2 PNG', () => [jpegBomb, pngBomb, jpegBomb, pngBomb].map(question)],
    ['scans: 2 JPEG + 2 PNG', () => [jpegBomb, pngBomb, jpegBomb, pngBomb].map(scan)],
  ]
  const rows = []
  for (const [name, start] of steps) {
    const rss = () => Object.values(server.rss()).reduce((sum, mb) => sum + mb, 0)
    let peak = rss()
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20)
    const logins = []
    const files = []
    const health = []
    let done = false
    const started = performance.now()
    const bombs = Promise.all(start()).finally(() => (done = true))
    const other = (async () => {
      do {
        const login = await call(base, 'POST', '/api/token/', { body: { username: 'learner2', password: PASSWORD } })
        if (login.status !== 200) throw new Error(`login ${login.status}`)
        logins.push(login.ms)
        const file = await send(base, 'GET', script)
        if (file.status !== 200) throw new Error(`file ${file.status}`)
        files.push(file.ms)
        health.push((await send(base, 'GET', '/api/health')).ms)
      } while (!done)
    })()
    const answers = await bombs
    const seconds = (performance.now() - started) / 1000
    await other
    clearInterval(sampler)
    rows.push({
      step: name,
      answers: answers.map((answer) => answer.status).join(' '),
      s: +seconds.toFixed(2),
      logins: logins.length,
      'login max ms': Math.round(Math.max(...logins)),
      'file max ms': Math.round(Math.max(...files)),
      'health max ms': Math.round(Math.max(...health)),
      'peak RSS MB': peak,
    })
    console.log(
      name,
      answers.map((answer) => `${answer.status} ${answer.text.slice(0, 160)}`),
    )
  }
  console.table(rows)
  const worst = (column) => Math.max(...rows.map((row) => row[column]))
  console.log(
    `budget: login and file under 2,000 ms (worst ${Math.max(worst('login max ms'), worst('file max ms'))}), ` +
      `server under 1,000 MB (peak ${worst('peak RSS MB')})`,
  )
} finally {
  await server.stop()
  if (webDist !== builtWeb) rmSync(webDist, { recursive: true, force: true })
}
