// Calibration: a bare Fastify route in its own process answering the body it is given (BARE_BODY, the JSON of a
// real question), so the figures of our routes can be read against what this machine and load generator allow at all.
import Fastify from 'fastify'

const body = JSON.parse(process.env.BARE_BODY ?? '{"hello":"world"}')
const app = Fastify({ logger: false })
app.get('/bare', async () => body)
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
process.on('SIGTERM', () => app.close().then(() => process.exit(0)))
