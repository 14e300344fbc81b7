// What the security headers cost a request (decision 136): `node bench/header-cost.mjs` (after `npm run build`).
// Reads the headers the app sends on a JSON answer and on a page, then runs the bare Fastify route (bare-server.mjs)
// with none, the JSON set and the page set, by turns (BENCH_ROUNDS, default 3; BENCH_DURATION s each, default 4),
// printing the rate and the bare process's CPU a request.
import autocannon from 'autocannon'
import { processCpuSeconds, startBareServer, startServer } from './lib.mjs'

const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const duration = Number(process.env.BENCH_DURATION ?? 4)
// Set by Node or Fastify on every answer, or the body's own: not the security headers.
const own = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'vary', 'etag'])

async function headersOf(url) {
  const response = await fetch(url, { redirect: 'manual' })
  await response.arrayBuffer()
  return Object.fromEntries([...response.headers].filter(([name]) => !own.has(name) && !name.startsWith('last-')))
}

const server = await startServer()
const sets = { none: {} }
try {
  sets.json = await headersOf(`${server.baseUrl}/api/health`)
  sets.page = await headersOf(`${server.baseUrl}/login`)
} finally {
  await server.stop()
}
for (const [name, headers] of Object.entries(sets)) console.log(name, Object.keys(headers).length, 'headers')

for (let round = 1; round <= rounds; round++) {
  for (const [name, headers] of Object.entries(sets)) {
    const { url, process: bare } = await startBareServer({ BARE_HEADERS: JSON.stringify(headers) })
    await autocannon({ url: `${url}/bare`, connections: 50, duration: 1 })
    const cpu = processCpuSeconds(bare.pid)
    const result = await autocannon({ url: `${url}/bare`, connections: 50, duration })
    const us = ((processCpuSeconds(bare.pid) - cpu) * 1e6) / result.requests.total
    console.log(
      `round ${round} ${name}: ${Math.round(result.requests.average)} req/s, ${us.toFixed(1)} µs CPU a request`,
    )
    bare.kill()
  }
}
