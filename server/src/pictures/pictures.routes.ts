import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { PicturesService } from './pictures.service'

// Any name at all: one that is not a picture's is a 404 like an unknown one, never a 400.
const PictureFileParamsSchema = z.object({ file: z.string() })
const FILE = /^([0-9a-f]{64})\.webp$/

// Public on purpose: an <img> sends no bearer token; the name, keyed with the server's secret (picture-names.ts), is
// the only guard, draft and paid-tier pictures included. A name never changes meaning, so the learner's browser keeps
// it a year; `private` keeps it out of shared caches, which would keep serving a deleted picture to anyone.
export const pictureRoutes: FastifyPluginAsyncZod<{ pictures: PicturesService }> = async (app, { pictures }) => {
  app.get('/:file', { schema: { tags: ['pictures'], params: PictureFileParamsSchema } }, async (request, reply) => {
    const hash = FILE.exec(request.params.file)?.[1]
    const data = hash === undefined ? undefined : await pictures.read(hash)
    if (!data) return reply.callNotFound()
    return reply.header('cache-control', 'private, max-age=31536000, immutable').type('image/webp').send(data)
  })
}
