import compress from '@fastify/compress'
import type { FastifyInstance } from 'fastify'
import { constants } from 'node:zlib'

// Brotli 4: most of the gain for far less CPU. Request bodies are not inflated: that would escape the body limits.
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
