import {
  BankFacetsSchema,
  BankListQuerySchema,
  BankListSchema,
  BankQuestionInputSchema,
  BankQuestionSchema,
  IdParamsSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { acceptJsonOnly } from '../http/json-only'
import { QUESTION_BODY_LIMIT } from './admin.routes'
import { questionImagesHook } from './image-fields'
import type { PicturesService } from '../pictures/pictures.service'
import type { BankService } from './bank.service'

const docs = { tags: ['admin'], security: [{ bearer: [] }] }

export const bankRoutes: FastifyPluginAsyncZod<{ bank: BankService; pictures: PicturesService }> = async (
  app,
  { bank, pictures },
) => {
  const checkImages = questionImagesHook(BankQuestionInputSchema, pictures)
  app.addHook('onRequest', app.requireAdmin)
  acceptJsonOnly(app)

  app.get(
    '/questions/',
    { schema: { ...docs, querystring: BankListQuerySchema, response: { 200: BankListSchema } } },
    (request) => bank.list(request.query),
  )
  app.get('/facets/', { schema: { ...docs, response: { 200: BankFacetsSchema } } }, () => bank.facets())
  app.post(
    '/questions/',
    {
      bodyLimit: QUESTION_BODY_LIMIT,
      preValidation: checkImages,
      schema: { ...docs, body: BankQuestionInputSchema, response: { 201: BankQuestionSchema } },
    },
    async (request, reply) => reply.code(201).send(await bank.create(request.body, actorOf(request))),
  )
  app.get(
    '/questions/:id/',
    { schema: { ...docs, params: IdParamsSchema, response: { 200: BankQuestionSchema } } },
    (request) => bank.get(request.params.id),
  )
  app.put(
    '/questions/:id/',
    {
      bodyLimit: QUESTION_BODY_LIMIT,
      preValidation: checkImages,
      schema: { ...docs, params: IdParamsSchema, body: BankQuestionInputSchema, response: { 200: BankQuestionSchema } },
    },
    (request) => bank.replace(request.params.id, request.body, actorOf(request)),
  )
  app.delete('/questions/:id/', { schema: { ...docs, params: IdParamsSchema } }, async (request, reply) => {
    await bank.remove(request.params.id, actorOf(request))
    return reply.code(204).send()
  })
}
