import type { FastifyInstance } from 'fastify'

// Fastify also parses text/plain by default, which would turn into a 400 about the body's shape: API.md says 415.
export function acceptJsonOnly(app: FastifyInstance) {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'))
}
