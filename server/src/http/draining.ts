import type { FastifyInstance } from 'fastify'
import { AppError } from './errors'

export const drainingDetail = 'The server is restarting. Please try again in a moment.'

/**
 * While the server stops (app.close(): SIGTERM in main.ts), a request that still reaches it, on a keep-alive
 * connection opened before, is refused with API.md's body, Retry-After and `Connection: close`, so the client
 * sends it again on a new connection: to another process, or to this one once it is back. Requests already
 * running are not touched and finish. Fastify's own 503 (return503OnClosing) is turned off in app.ts because its
 * body is not `{detail, code}`.
 */
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
