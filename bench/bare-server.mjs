// Calibration: a bare Fastify route in its own process answering the body it is given (BARE_BODY, the JSON of a
// real question), so the figures of our routes can be read against what this machine and load generator allow at all.
import Fastify from 'fastify'

const body = JSON.parse(process.env.BARE_BODY ?? '{"hello":"world"}')
// BARE_WORK_US: the route first spends that many µs of CPU, as a route's own work would (a calibration row).
const workMs = Number(process.env.BARE_WORK_US ?? 0) / 1000
// BARE_HEADERS: headers (a JSON object) set on every answer, as the app's security headers are (bench/header-cost.mjs).
const headers = JSON.parse(process.env.BARE_HEADERS ?? '{}')
const app = Fastify({ logger: false })
if (Object.keys(headers).length > 0)
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(headers)
    done(null, payload)
  })
app.get('/bare', async () => {
  const end = performance.now() + workMs
  while (performance.now() < end) {
    // the route's own work
  }
  return body
})
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
process.on('SIGTERM', () => app.close().then(() => process.exit(0)))
