// npm run bench:bombs: issue 54's picture bombs against the decode gate (docs/decisions/060). The built server on
// SQLite; one learner (or the admin) sends four bomb pictures at once while another learner logs in (argon2, on
// libuv's thread pool like the decodes) and fetches the web app's JavaScript, again and again until the four are
// answered. Printed per step: the bombs' answers and time, the slowest login, file and health answer meanwhile, and
// the server's peak RSS. Budget: logins and files under 2 s, the server under 1 GB.
// The bombs: a 7000 x 7000 progressive JPEG of 2,647 scans (533 KB; 47 s and 300 MB to decode unbounded) and a flat
// 16-bit 7000 x 7000 PNG (300 KB, 294 MB decoded), each written by server/test/fixtures/bomb-images.ts.
// Issue 72's steps (docs/decisions/088): SVG "photos" to the page and profile routes, a 4-component progressive JPEG
// to the page route, dropped and trickled page uploads; then the server idles 10 s and its RSS is printed.
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { progressiveJpegBomb, sixteenBitPng, svgBomb } from '../server/test/fixtures/bomb-images.ts'
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

/**
 * An upload of `declared` bytes of which only the part's head is sent: dropped (`socket.destroy()`) or trickled
 * (`write`). `status()` is the status the server answered, 0 if none yet.
 */
function partialUpload(baseUrl, url, token, declared = 1_000_000) {
  const { port } = new URL(baseUrl)
  const boundary = '----bench-partial'
  const socket = net.connect(Number(port), '127.0.0.1')
  socket.on('error', () => {})
  let answer = ''
  socket.on('data', (chunk) => (answer += chunk.toString('latin1')))
  socket.write(
    `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n` +
      `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: ${declared}\r\n\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="page.jpg"\r\n` +
      'Content-Type: image/jpeg\r\n\r\n',
  )
  return {
    socket,
    status: () => Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0),
    write: (bytes) => socket.write(Buffer.alloc(bytes, 0xab)),
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

console.log('writing the bombs...')
const jpegBomb = progressiveJpegBomb({ width: 7000, height: 7000 })
const pngBomb = await sixteenBitPng(7000, 7000)
const pngUnderCap = await sixteenBitPng(5000, 5000)
// Issue 72: an SVG sent as a photo (librsvg takes some 20 s to size it) and a 4-component progressive JPEG of a
// few scans (about 400 MB of coefficients to decode).
const svg = svgBomb(6)
const cmykBomb = progressiveJpegBomb({ width: 7000, height: 7000, components: 4, fewScans: true })
const { default: sharp } = await import('sharp')
const pagePhoto = await sharp({ create: { width: 1200, height: 1600, channels: 3, background: '#f4f0e6' } })
  .jpeg()
  .toBuffer()
console.log(
  `JPEG ${(jpegBomb.length / 1e3).toFixed(0)} KB, 16-bit PNG ${(pngBomb.length / 1e3).toFixed(0)} KB, ` +
    `16-bit 5000 x 5000 PNG ${(pngUnderCap.length / 1e3).toFixed(0)} KB, SVG ${(svg.length / 1e3).toFixed(1)} KB, ` +
    `4-component progressive JPEG ${(cmykBomb.length / 1e3).toFixed(0)} KB`,
)

const server = await startServer({ env: { WEB_DIST: webDist, RATE_LIMIT_PROFILE_PICTURE_PER_USER_HOUR: '1000' } })
const base = server.baseUrl
try {
  const admin = await server.seed({
    admin: 'benchadmin',
    phone: '9700000000',
    learners: 14,
    prefix: 'learner',
    password: PASSWORD,
  })
  const [sender] = await server.tokensFor(['learner1'])
  // learner2 logs in meanwhile; 3..14 send pages, each to an attempt of their own at a written paper.
  const pageSenders = await server.tokensFor(Array.from({ length: 12 }, (_, i) => `learner${i + 3}`))
  const writtenQuiz = quizJson(1, 'Bench written paper')
  writtenQuiz.questions.push({
    type: 'written',
    text: { en: 'Explain the role of the Public Service Commission.', ne: '' },
    topic: 'Constitution',
    marks: 10,
    word_limit: 300,
  })
  const writtenId = await server.createQuiz(admin, writtenQuiz)
  const writtenQuestion = (await call(base, 'GET', `/api/admin/quizzes/${writtenId}/`, { token: admin })).body
    .questions[1].id
  const pageUrls = []
  for (const token of pageSenders) {
    const begun = await call(base, 'GET', `/api/quizzes/${writtenId}/`, { token })
    pageUrls.push(`/api/attempts/${begun.body.attempt.id}/written/${writtenQuestion}/pages/`)
  }
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

  const pageUpload = (n, bytes) => {
    const form = multipart('image', bytes, 'page.jpg')
    return send(base, 'POST', pageUrls[n], {
      headers: { ...form.headers, authorization: `Bearer ${pageSenders[n]}` },
      payload: form.payload,
    })
  }
  // Eight learners' uploads dropped after their part's head: then a ninth learner's page.
  const dropped = async () => {
    const partial = [0, 1, 2, 3, 4, 5, 6, 7].map((n) => partialUpload(base, pageUrls[n], pageSenders[n]))
    await sleep(1_000)
    for (const upload of partial) upload.socket.destroy()
    return [await pageUpload(8, pagePhoto)]
  }
  // 36 uploads trickled by one learner (10 bytes every half second) while another sends a page.
  const trickled = async () => {
    const slow = Array.from({ length: 36 }, () => partialUpload(base, pageUrls[9], pageSenders[9]))
    const trickle = setInterval(() => slow.forEach((upload) => upload.write(10)), 500)
    await sleep(1_000)
    const other = await pageUpload(10, pagePhoto)
    clearInterval(trickle)
    for (const upload of slow) upload.socket.destroy()
    const refused = slow.filter((upload) => upload.status() === 429).length
    return [{ ...other, text: `${other.text.slice(0, 60)} (the trickler's own uploads refused 429: ${refused})` }]
  }

  const steps = [
    ['profile: 2 JPEG + 2 PNG 7000 x 7000', () => [jpegBomb, pngBomb, jpegBomb, pngBomb].map(profile)],
    ['profile: 4 PNG 16-bit 5000 x 5000', () => [pngUnderCap, pngUnderCap, pngUnderCap, pngUnderCap].map(profile)],
    ['question pictures: 2 JPEG + 2 PNG', () => [jpegBomb, pngBomb, jpegBomb, pngBomb].map(question)],
    ['scans: 2 JPEG + 2 PNG', () => [jpegBomb, pngBomb, jpegBomb, pngBomb].map(scan)],
    ['pages: 4 SVG "photos"', () => [0, 1, 2, 3].map((n) => pageUpload(n, svg))],
    ['profile: 4 SVG "photos"', () => [svg, svg, svg, svg].map(profile)],
    ['pages: 4 progressive 4-component JPEG', () => [4, 5, 6, 7].map((n) => pageUpload(n, cmykBomb))],
    ['pages: 8 dropped, then a page', () => [dropped()]],
    ['pages: 36 trickled by one, a page by another', () => [trickled()]],
  ]
  // BOMBS_ONLY=72 runs issue 72's steps alone, on a server that has decoded nothing: its RSS after idling is then the
  // storm's own cost.
  if (process.env.BOMBS_ONLY === '72') steps.splice(0, 4)
  const rows = []
  const startRss = Object.values(server.rss()).reduce((sum, mb) => sum + mb, 0)
  for (const [name, start] of steps) {
    const rss = () => Object.values(server.rss()).reduce((sum, mb) => sum + mb, 0)
    let peak = rss()
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20)
    const logins = []
    const files = []
    const health = []
    let done = false
    const started = performance.now()
    const bombs = Promise.all(start())
      .then((answers) => answers.flat())
      .finally(() => (done = true))
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
  // Memory back after the storm: what the server keeps once idle (sharp's cache is off; MALLOC_ARENA_MAX=2).
  await sleep(10_000)
  const idle = Object.values(server.rss()).reduce((sum, mb) => sum + mb, 0)
  console.log(`RSS at start ${startRss} MB, after 10 s idle following the storm ${idle} MB`)
  const worst = (column) => Math.max(...rows.map((row) => row[column]))
  console.log(
    `budget: login and file under 2,000 ms (worst ${Math.max(worst('login max ms'), worst('file max ms'))}), ` +
      `server under 1,000 MB (peak ${worst('peak RSS MB')})`,
  )
} finally {
  await server.stop()
  if (webDist !== builtWeb) rmSync(webDist, { recursive: true, force: true })
}
