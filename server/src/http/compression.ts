import compress from '@fastify/compress'
import type { FastifyInstance } from 'fastify'
import { constants } from 'node:zlib'

/**
 * API.md "Maths and chemistry": JSON responses under /api are compressed (brotli or gzip) when the client accepts
 * it, so a paper's rendered maths costs a learner few bytes on a slow connection (docs/decisions/027).
 * - Only routes under /api: the web app's files are compressed once at build time and sent as they are.
 * - Brotli at quality 4, the plugin's own default, stated here: far cheaper in CPU than the maximum, for most of
 *   the gain, on a machine with two cores that also answers learners.
 * - Only responses over 1 KB: below that compression saves too little to pay for itself.
 * - Request bodies are not inflated: nothing sends them compressed, and an inflated body would escape the
 *   body limits.
 * A route that streams (the attempts CSV) sets `compress: false`: a download is written as it is read.
 */
export async function registerCompression(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') && route.compress === undefined) route.compress = false
  })
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  })
}
