// npm run bench:file-redirects: a written page served through the app against a redirect to the S3 store's signed
// address (S3_SIGNED_REDIRECTS, docs/decisions/112, docs/performance.md).
// An S3-compatible server (s3rver, in its own process, as a store on another machine would be) holds one page of
// 300 KB. A small HTTP server in this process stands for the app's file route in both modes, doing what the route
// does after its checks: (a) through the app: reads the file from the store and sends its bytes; (b) redirect: signs
// an address (local arithmetic) and answers 302. LEARNERS clients (default 50) fetch the page PAGES times each
// (default 20), following the redirect to the store in (b). Printed: requests a second, p50 and p99 of one page as
// the learner sees it, and the CPU the app's process spent per page, which is what the redirect saves.
import http from 'node:http'
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { createS3Store } from '../server/src/files/s3-store.ts'
import { freePort, percentile } from './lib.mjs'

const LEARNERS = Number(process.env.LEARNERS ?? 50)
const PAGES = Number(process.env.PAGES ?? 20)
const directory = await mkdtemp(path.join(tmpdir(), 'bench-s3-'))
const s3Port = await freePort()
const s3rver = spawn(
  'node_modules/.bin/s3rver',
  [
    '--address',
    '127.0.0.1',
    '--port',
    String(s3Port),
    '--directory',
    directory,
    '--configure-bucket',
    'bench',
    '--silent',
  ],
  { stdio: 'inherit' },
)
const settings = {
  endpoint: `http://127.0.0.1:${s3Port}`,
  bucket: 'bench',
  region: 'us-east-1',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
}
const store = createS3Store(settings)
const page = randomBytes(300 * 1024)
for (let tries = 0; ; tries++) {
  try {
    await store.put('pages/bench', page, 'image/jpeg')
    break
  } catch (error) {
    if (tries > 50) throw error
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

async function run(mode) {
  const app = http.createServer(async (request, response) => {
    if (mode === 'through the app') {
      const data = await store.get('pages/bench')
      response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': data.length })
      response.end(data)
    } else {
      const url = await store.signedUrl('pages/bench', { seconds: 300, contentType: 'image/jpeg' })
      response.writeHead(302, { location: url, 'cache-control': 'private, max-age=300' })
      response.end()
    }
  })
  await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${app.address().port}/page`
  const times = []
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  await Promise.all(
    Array.from({ length: LEARNERS }, async () => {
      for (let i = 0; i < PAGES; i++) {
        const begun = performance.now()
        const answer = await fetch(url)
        const body = Buffer.from(await answer.arrayBuffer())
        if (body.length !== page.length) throw new Error(`${mode}: ${answer.status}, ${body.length} bytes`)
        times.push(performance.now() - begun)
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  times.sort((a, b) => a - b)
  const cpu = process.cpuUsage(cpuBefore)
  await new Promise((resolve) => app.close(resolve))
  const pages = LEARNERS * PAGES
  console.log(
    `${mode}: ${pages} pages of 300 KB, ${(pages / seconds).toFixed(0)} pages/s, p50 ${percentile(times, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(times, 99).toFixed(1)} ms; this process's CPU (app and clients) ${((cpu.user + cpu.system) / 1000 / pages).toFixed(2)} ms a page, ` +
      `bytes through the app ${mode === 'redirect' ? 0 : ((pages * page.length) / 1024 / 1024).toFixed(0) + ' MB'}`,
  )
}

try {
  for (const mode of ['through the app', 'redirect', 'through the app', 'redirect']) await run(mode)
} finally {
  s3rver.kill()
  await rm(directory, { recursive: true, force: true })
}
