import type { FastifyInstance } from 'fastify'
import { AppError } from './errors'

export const drainingDetail = 'The server is restarting. Please try again in a moment.'

// `Connection: close`, so the client resends on a new connection; Fastify's own 503 body is not API.md's (app.ts).
export function registerDraining(app: FastifyInstance) {
  let draining = false
  app.addHook('preClose', async () => {
    draining = true
  })
  // Callback-style hooks on every request: an async one costs a promise and a microtask each time.
  app.addHook('onRequest', (_request, _reply, done) => {
    if (!draining) return done()
    done(
      new AppError(503, 'service_unavailable', drainingDetail, undefined, {
        'retry-after': '5',
        connection: 'close',
      }),
    )
  })
}
