// npm run bench:pictures: the budgets of API.md "Pictures in questions" (docs/decisions/053).
//  1. A 2,000 px scanned diagram of about 1 MB (JPEG; bench/picture-fixtures.mjs) is stored in at most 150 KB.
//  2. Re-encoding it takes under 300 ms of CPU (process.cpuUsage, sharp on one thread; median and max of the runs).
//  3. A 100-question paper with 20 such pictures adds at most 3 MB to the offline download (every question n and
//     every picture, as the quiz screen fetches them, less the same paper without pictures; bytes on the wire).
//  4. 200 learners fetch the paper's 20 pictures at once from one server process (one keep-alive connection each,
//     the 20 in turn): requests a second, p50 and p99 of one picture (budget: p99 under 100 ms), and the server's CPU
//     per picture. As in an exam hall: the learners have started the paper and fetched its 100 questions first (the
//     pictures' addresses come with them, and the server reads a paper's pictures ahead when it first reads the
//     paper); then twice more, warm. The learners' client is warmed first against a bare Node server (warmLearners:
//     a cold client's own tail is not the server's). The client is Node's own (its
//     parser is C): autocannon's JavaScript parser tops out near 40 MB/s of 115 KB bodies here, at a full core while
//     the server idles (docs/performance.md); one autocannon run is printed beside for comparison.
// The built server on SQLite, or on PostgreSQL with BENCH_DATABASE_URL. BENCH_RUNS (default 9) re-encodings.
import http from 'node:http'
import { gunzipSync, brotliDecompressSync } from 'node:zlib'
import autocannon from 'autocannon'
import sharp from 'sharp'
import { encodePicture } from '../server/src/pictures/picture-encoding.ts'
import { scannedDiagram } from './picture-fixtures.mjs'
import { execFileSync, spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { call, percentile, processCpuSeconds, quizJson, startServer } from './lib.mjs'

const KB = 1024
const MB = 1024 * KB
const runs = Number(process.env.BENCH_RUNS ?? 9)
const LEARNERS = 200
const PICTURES = 20
const QUESTIONS = 100
const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1]
const verdict = (ok) => (ok ? 'within budget' : 'OVER BUDGET')

// 1 and 2: one diagram, encoded as the server encodes it.
const diagram = await scannedDiagram(1)
const input = await sharp(diagram.jpeg).metadata()
console.log(`input: ${input.width} x ${input.height} JPEG, ${kb(diagram.jpeg.length)} (quality ${diagram.quality})`)
sharp.concurrency(1)
const cpu = []
const wall = []
let stored
for (let run = 0; run <= runs; run++) {
  const started = performance.now()
  const before = process.cpuUsage()
  stored = await encodePicture(diagram.jpeg)
  const used = process.cpuUsage(before)
  // The first run warms libvips and libwebp up; it is not counted.
  if (run === 0) continue
  cpu.push((used.user + used.system) / 1000)
  wall.push(performance.now() - started)
}
if (typeof stored === 'string') throw new Error(`the diagram was refused: ${stored}`)
console.log(
  `stored: ${stored.width} x ${stored.height} WebP, ${kb(stored.data.length)} (budget 150 KB: ${verdict(stored.data.length <= 150 * KB)})`,
)
console.log(
  `re-encoding, CPU of one core over ${runs} runs: median ${median(cpu).toFixed(0)} ms, max ${Math.max(...cpu).toFixed(0)} ms ` +
    `(wall median ${median(wall).toFixed(0)} ms; budget under 300 ms: ${verdict(Math.max(...cpu) < 300)})`,
)
sharp.concurrency(0)

// 3 and 4: a server with a paper of 100 questions, 20 of them with a picture each, all different.
const server = await startServer()
// The server on the first core and this script (the learners' browsers) on the second, where taskset and two cores
// are there: as in a hall, the browsers do not take the server's core. BENCH_PIN=0 leaves both to the scheduler.
const pinned = process.env.BENCH_PIN !== '0' && availableParallelism() >= 2 && pin(server.pid, 0) && pin(process.pid, 1)
console.log(
  pinned
    ? 'the server pinned to CPU 0, the learners to CPU 1'
    : 'not pinned: the server and the learners share the CPUs',
)
try {
  const admin = await server.seed({
    admin: 'benchadmin',
    phone: '9700000000',
    learners: LEARNERS,
    prefix: 'learner',
    password: 'Bench-pass-2026',
  })
  const tokens = await server.tokensFor(Array.from({ length: LEARNERS }, (_, index) => `learner${index + 1}`))
  const [learner] = tokens
  const paper = quizJson(QUESTIONS, 'Maps and diagrams')
  const plain = await server.createQuiz(admin, quizJson(QUESTIONS, 'The same paper without pictures'))
  const pictured = await server.createQuiz(admin, paper)
  const { body: quiz } = await call(server.baseUrl, 'GET', `/api/admin/quizzes/${pictured}/`, { token: admin })
  const diagramSizes = []
  for (let index = 0; index < PICTURES; index++) {
    const { jpeg } = index === 0 ? diagram : await scannedDiagram(index + 1, { quality: diagram.quality })
    diagramSizes.push(jpeg.length)
    // Every fifth question, each with its own diagram; one question a request (a picture is up to 5 MB).
    const number = index * (QUESTIONS / PICTURES)
    const body = {
      ...paper.questions[number],
      image: { picture: `data:image/jpeg;base64,${jpeg.toString('base64')}`, caption: { en: `Figure ${index + 1}` } },
    }
    const put = await call(
      server.baseUrl,
      'PUT',
      `/api/admin/quizzes/${pictured}/questions/${quiz.questions[number].id}/`,
      {
        body,
        token: admin,
      },
    )
    if (put.status !== 200) throw new Error(`PUT question ${number + 1}: ${put.status} ${JSON.stringify(put.body)}`)
  }
  const storedSizes = (await server.rows('select length(data) as bytes from pictures')).map((row) => Number(row.bytes))
  console.log(
    `${PICTURES} diagrams: ${kb(median(diagramSizes))} median as sent; stored ${kb(median(storedSizes))} median, ` +
      `${kb(Math.max(...storedSizes))} max`,
  )

  // The learner's paper: each question n, as the quiz screen fetches them, and the pictures they show.
  const paperBytes = async (quizId) => {
    await call(server.baseUrl, 'GET', `/api/quizzes/${quizId}/`, { token: learner })
    let bytes = 0
    const urls = []
    for (let number = 1; number <= QUESTIONS; number++) {
      const response = await fetchWire(`/api/quizzes/${quizId}/question/${number}/`, learner)
      bytes += response.wire
      const question = JSON.parse(response.body)
      for (const image of [question.image, ...question.options.map((option) => option.image)])
        if (image?.picture) urls.push(image.picture.url)
    }
    return { bytes, urls }
  }
  const without = await paperBytes(plain)
  const withPictures = await paperBytes(pictured)

  // 4. The hall: every learner starts the paper and fetches its questions, then all fetch its pictures at once.
  const started = performance.now()
  const connections = await Promise.all(tokens.map((token) => fetchPaper(pictured, token)))
  console.log(
    `${LEARNERS} learners started the paper and fetched its ${QUESTIONS} questions in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  const urls = withPictures.urls.slice(0, PICTURES)
  await warmLearners(urls)
  // A browser asks for a page's pictures on the connections it fetched the page on (the server keeps them 72 s).
  await burst(server, urls, 'after the paper, on its connections', connections)
  await burst(server, urls, 'again', connections)
  for (const agent of connections) agent.destroy()
  // The same with a new connection each, opened in the same instant as the 199 others: each learner's first request
  // pays for it.
  await burst(server, urls, 'on new connections')
  await autocannonBurst(server, urls)

  let pictureBytes = 0
  const first = await fetchWire(withPictures.urls[0])
  console.log(
    `a picture as served: ${first.status}, ${first.headers['content-type']}, ${first.headers['cache-control']}, ` +
      `content-encoding ${first.headers['content-encoding'] ?? 'none'}`,
  )
  for (const url of withPictures.urls) pictureBytes += (await fetchWire(url)).wire
  const added = withPictures.bytes - without.bytes + pictureBytes
  console.log(
    `offline paper of ${QUESTIONS} questions: ${kb(without.bytes)} of questions without pictures; with ${withPictures.urls.length} ` +
      `pictures ${kb(withPictures.bytes)} of questions and ${kb(pictureBytes)} of pictures: ${(added / MB).toFixed(2)} MB added ` +
      `(budget 3 MB: ${verdict(added <= 3 * MB)})`,
  )
  console.log(`database: ${server.dialect}`)
} finally {
  await server.stop()
}

/** A learner's start and every question of the paper, one after the other on one keep-alive connection. */
async function fetchPaper(quizId, token) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const get = (url) =>
    new Promise((resolve, reject) =>
      http
        .get(`${server.baseUrl}${url}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
          res.resume()
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${res.statusCode}`))))
        })
        .on('error', reject),
    )
  await get(`/api/quizzes/${quizId}/`)
  for (let number = 1; number <= QUESTIONS; number++) await get(`/api/quizzes/${quizId}/question/${number}/`)
  return agent
}

/** GET as a browser does (compression accepted): the bytes on the wire and the decoded body. */
function fetchWire(url, token) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${server.baseUrl}${url}`,
      { headers: { 'accept-encoding': 'br, gzip', ...(token ? { authorization: `Bearer ${token}` } : {}) } },
      (res) => {
        const chunks = []
        res.on('data', (chunk) => chunks.push(chunk))
        res.on('end', () => {
          const wire = Buffer.concat(chunks)
          const encoding = res.headers['content-encoding']
          const body = encoding === 'br' ? brotliDecompressSync(wire) : encoding === 'gzip' ? gunzipSync(wire) : wire
          resolve({ status: res.statusCode, headers: res.headers, wire: wire.length, body: body.toString('utf8') })
        })
      },
    )
    req.on('error', reject)
  })
}

/**
 * The learners' side of the burst run once, twice, against a bare Node server (one 115 KB body for any path, on the
 * server's core) before the real one: 200 browsers are 200 machines, warm, but this script is one Node process
 * whose first 4,000 large bodies meet its own code cold, and that tail (p99 110-150 ms here against a server that
 * does nothing) was being charged to our server's first burst.
 */
async function warmLearners(urls) {
  const bare = spawn(
    process.execPath,
    [
      '-e',
      `const body = Buffer.alloc(${118 * KB}, 7)
       const server = require('node:http').createServer((_, res) => {
         res.writeHead(200, { 'content-type': 'image/webp', 'content-length': body.length })
         res.end(body)
       })
       server.listen(0, '127.0.0.1', () => console.log(server.address().port))`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  try {
    const port = await new Promise((resolve) => bare.stdout.once('data', (data) => resolve(Number(String(data)))))
    if (pinned) pin(bare.pid, 0)
    const stand = { baseUrl: `http://127.0.0.1:${port}`, pid: bare.pid }
    const agents = Array.from({ length: LEARNERS }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }))
    await burst(stand, urls, "the learners' client warming up against a bare Node server", agents, false)
    await burst(stand, urls, 'the same, warm', agents, false)
    for (const agent of agents) agent.destroy()
  } finally {
    bare.kill()
  }
}

/** Every thread of a process on one CPU; false where taskset is missing. */
function pin(pid, cpu) {
  try {
    execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/**
 * LEARNERS learners at once, each fetching the paper's pictures one after the other on its own connection (`agents`,
 * one a learner, or new ones); a latency per picture.
 */
async function burst(server, urls, name, agents, judged = true) {
  const fresh = new http.Agent({ keepAlive: true, maxSockets: LEARNERS })
  const latencies = []
  // Each learner's first picture also pays for its connection, opened with 199 others in the same instant.
  const firsts = []
  let errors = 0
  let bytes = 0
  const get = (url, learner) =>
    new Promise((resolve) => {
      const started = performance.now()
      const agent = agents?.[learner] ?? fresh
      http
        .get(`${server.baseUrl}${url}`, { agent, headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
          if (res.statusCode !== 200) errors++
          res.on('data', (chunk) => (bytes += chunk.length))
          res.on('end', () => resolve(latencies.push(performance.now() - started)))
        })
        .on('error', () => resolve(errors++))
    })
  const cpuBefore = processCpuSeconds(server.pid)
  const started = performance.now()
  await Promise.all(
    Array.from({ length: LEARNERS }, async (_, learner) => {
      // Each learner's paper lists the pictures in its own order (shuffled questions).
      for (let i = 0; i < urls.length; i++) {
        await get(urls[(i + learner) % urls.length], learner)
        if (i === 0) firsts.push(latencies.at(-1))
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const cpuAfter = processCpuSeconds(server.pid)
  fresh.destroy()
  latencies.sort((a, b) => a - b)
  firsts.sort((a, b) => a - b)
  const p99 = percentile(latencies, 99)
  const cpu =
    cpuBefore === undefined
      ? ''
      : `, server CPU ${(((cpuAfter - cpuBefore) * 1000) / latencies.length).toFixed(2)} ms a picture`
  console.log(
    `${LEARNERS} learners x ${urls.length} pictures, ${name}: ${latencies.length} in ${seconds.toFixed(2)} s, ` +
      `${Math.round(latencies.length / seconds)} req/s, ${(bytes / MB / seconds).toFixed(0)} MB/s, ` +
      `p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${latencies.at(-1).toFixed(0)} ms, ` +
      `errors ${errors}${cpu}${judged ? ` (budget p99 under 100 ms: ${verdict(p99 < 100 && errors === 0)})` : ''}; ` +
      `each learner's first picture: p50 ${percentile(firsts, 50).toFixed(0)} ms, p99 ${percentile(firsts, 99).toFixed(0)} ms`,
  )
}

/** The same load from autocannon, for comparison: here its client, not the server, sets the pace. */
function autocannonBurst(server, urls) {
  let n = 0
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: server.baseUrl,
        connections: LEARNERS,
        amount: LEARNERS * urls.length,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: urls[n++ % urls.length] }) }],
      },
      (error, result) => {
        if (error) return reject(error)
        const errors = result.errors + result.timeouts + result.non2xx
        console.log(
          `  the same from autocannon (its client at a full core): ${Math.round(result.requests.total / result.duration)} req/s, ` +
            `${(result.throughput.total / MB / result.duration).toFixed(0)} MB/s, p50 ${result.latency.p50} ms, ` +
            `p99 ${result.latency.p99} ms, errors ${errors}`,
        )
        resolve(result)
      },
    ),
  )
}
