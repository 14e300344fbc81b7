// Calibration: a bare Fastify route in its own process, so the figures of our routes can be read against
// what this machine and load generator allow at all.
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/bare', async () => ({ hello: 'world' }))
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
process.on('SIGTERM', () => app.close().then(() => process.exit(0)))
