import type { FastifyInstance } from 'fastify'

/**
 * API.md: JSON in, and 415 for any other content type. Fastify also parses text/plain (and the multipart
 * plugin multipart/form-data) by default, which would turn into a 400 about the body's shape; in the
 * calling plugin's scope only JSON is parsed, so anything else is 415.
 */
export function acceptJsonOnly(app: FastifyInstance) {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'))
}
