import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import helmet from 'helmet'

// Computed once (helmet per request cost a quarter of hot throughput); set in onRequest so a route may override.
export function registerSecurityHeaders(
  app: FastifyInstance,
  { formActions = [], scriptHashes = [] }: { formActions?: string[]; scriptHashes?: string[] } = {},
) {
  const headers: Record<string, string> = {}
  const collector = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()]
    },
  }
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", 'data:'],
        // Our own files, and the web build's few inline scripts by their hash (webAppScriptHashes in app.ts).
        scriptSrc: ["'self'", ...scriptHashes.map((hash) => `'${hash}'`)],
        connectSrc: ["'self'"],
        // Ours only: default-src says so too, but a later change to it must not break installing or offline use.
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        // Forms post only to us, and to the payment providers whose checkout is a form POST (eSewa).
        formAction: ["'self'", ...formActions],
        // A school may serve this over plain HTTP on its LAN: upgrading every request to https would break the app.
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  })({} as IncomingMessage, collector as unknown as ServerResponse, () => {})

  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers)
    done()
  })
}
