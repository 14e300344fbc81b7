import {
  IdParamsSchema,
  PassageInputSchema,
  PassageListQuerySchema,
  PassageListSchema,
  PassageQuestionsBodySchema,
  PassageSchema,
  PassagePoolQuerySchema,
  PassagePoolSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { acceptJsonOnly } from '../http/json-only'
import { QUESTION_BODY_LIMIT } from './admin.routes'
import { passageImagesHook } from './image-fields'
import type { PicturesService } from '../pictures/pictures.service'
import type { PassagesService } from './passages.service'

const docs = { tags: ['admin'], security: [{ bearer: [] }] }

/** `/api/admin/bank/passages/` (API.md "Question types"): an institute's passages, held to it as its bank is. */
export const passageRoutes: FastifyPluginAsyncZod<{ passages: PassagesService; pictures: PicturesService }> = async (
  app,
  { passages, pictures },
) => {
  const checkImages = passageImagesHook(PassageInputSchema, pictures)
  app.addHook('onRequest', app.requireAdmin)
  acceptJsonOnly(app)

  app.get(
    '/',
    { schema: { ...docs, querystring: PassageListQuerySchema, response: { 200: PassageListSchema } } },
    (request) => passages.list(request.query),
  )
  app.get(
    '/pool/',
    { schema: { ...docs, querystring: PassagePoolQuerySchema, response: { 200: PassagePoolSchema } } },
    (request) => passages.pool(request.query),
  )
  app.post(
    '/',
    {
      bodyLimit: QUESTION_BODY_LIMIT,
      preValidation: checkImages,
      schema: { ...docs, body: PassageInputSchema, response: { 201: PassageSchema } },
    },
    async (request, reply) => reply.code(201).send(await passages.create(request.body, actorOf(request))),
  )
  app.get('/:id/', { schema: { ...docs, params: IdParamsSchema, response: { 200: PassageSchema } } }, (request) =>
    passages.get(request.params.id),
  )
  app.put(
    '/:id/',
    {
      bodyLimit: QUESTION_BODY_LIMIT,
      preValidation: checkImages,
      schema: { ...docs, params: IdParamsSchema, body: PassageInputSchema, response: { 200: PassageSchema } },
    },
    (request) => passages.replace(request.params.id, request.body, actorOf(request)),
  )
  app.delete('/:id/', { schema: { ...docs, params: IdParamsSchema } }, async (request, reply) => {
    await passages.remove(request.params.id, actorOf(request))
    return reply.code(204).send()
  })
  app.put(
    '/:id/questions/',
    { schema: { ...docs, params: IdParamsSchema, body: PassageQuestionsBodySchema, response: { 200: PassageSchema } } },
    (request) => passages.setQuestions(request.params.id, request.body.question_ids, actorOf(request)),
  )
}
