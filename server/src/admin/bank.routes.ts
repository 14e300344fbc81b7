import {
  bankMessages,
  BankFacetsSchema,
  BankListQuerySchema,
  BankListSchema,
  BankQuestionInputSchema,
  BankQuestionSchema,
  IdParamsSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { PLATFORM_INSTITUTE_ID } from '../db/tenancy'
import { Conflict } from '../http/errors'
import { acceptJsonOnly } from '../http/json-only'
import { QUESTION_BODY_LIMIT } from './admin.routes'
import { questionImagesHook } from './image-fields'
import type { PicturesService } from '../pictures/pictures.service'
import type { BankService } from './bank.service'
import { inPlatformBank } from './platform-source'

const docs = { tags: ['admin'], security: [{ bearer: [] }] }

/**
 * An institute's bank, or with `platform` the platform's (docs/decisions/101): the same routes for platform admins on
 * the platform's address, every query held to the platform's reserved institute.
 */
export const bankRoutes: FastifyPluginAsyncZod<{
  bank: BankService
  pictures: PicturesService
  platform?: boolean
}> = async (app, { bank, pictures, platform = false }) => {
  const checkImages = questionImagesHook(BankQuestionInputSchema, pictures)
  app.addHook('onRequest', platform ? app.requirePlatformAdmin : app.requireAdmin)
  if (platform) {
    app.addHook('preHandler', (request, _reply, done) => {
      // A lone institute's requests are not held to it: platform rows would show in its own bank (decision 101).
      if (request.method !== 'GET' && request.institute.id !== PLATFORM_INSTITUTE_ID)
        return done(new Conflict(bankMessages.platformBankNeedsInstitutes, 'platform_bank_needs_institutes'))
      inPlatformBank(done)
    })
  }
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
