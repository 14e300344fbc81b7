import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { PicturesService } from './pictures.service'

// Any name at all: one that is not a picture's is a 404 like an unknown one, never a 400.
const PictureFileParamsSchema = z.object({ file: z.string() })
const FILE = /^([0-9a-f]{64})\.webp$/

// Public: an <img> sends no token, the keyed name is the only guard; cached a year, `private` keeps shared caches out.
export const pictureRoutes: FastifyPluginAsyncZod<{ pictures: PicturesService }> = async (app, { pictures }) => {
  app.get('/:file', { schema: { tags: ['pictures'], params: PictureFileParamsSchema } }, async (request, reply) => {
    const hash = FILE.exec(request.params.file)?.[1]
    const signed = hash === undefined ? undefined : await pictures.signedOnHost(hash)
    // Kept by the browser a little less than the store's address lives (MAX_SIGNED_SECONDS).
    if (signed) return reply.header('cache-control', 'private, max-age=240').redirect(signed, 302)
    const data = hash === undefined ? undefined : await pictures.readOnHost(hash)
    if (!data) return reply.callNotFound()
    return reply.header('cache-control', 'private, max-age=31536000, immutable').type('image/webp').send(data)
  })
}
