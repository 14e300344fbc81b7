import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import helmet from 'helmet'

// Computed once (helmet per request cost a quarter of hot throughput).
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

  // A JSON answer is never a document: OWASP's REST set (no scripts, no framing, no sniffing, no caching) instead of
  // the page's twelve, up to a tenth of a hot route's CPU (docs/decisions/136).
  const json: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': headers['strict-transport-security']!,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  }

  // At send, when the body's type is known; a header the route set itself is kept.
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type')
    const set = typeof type === 'string' && type.startsWith('application/json') ? json : headers
    for (const name in set) if (!reply.hasHeader(name)) reply.header(name, set[name])
    if (request.url.startsWith('/api') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
    done(null, payload)
  })
}
