import { BankListQuerySchema, BankListSchema, BankQuestionSchema, IdParamsSchema } from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { acceptJsonOnly } from '../http/json-only'
import type { PlatformBankService } from './platform-bank.service'

const docs = { tags: ['admin'], security: [{ bearer: [] }] }

/** An institute's admins and the platform's bank (docs/decisions/101); learners never reach it. */
export const platformBankRoutes: FastifyPluginAsyncZod<{ platformBank: PlatformBankService }> = async (
  app,
  { platformBank },
) => {
  app.addHook('onRequest', app.requireAdmin)
  acceptJsonOnly(app)

  app.get(
    '/platform-bank/questions/',
    {
      schema: {
        ...docs,
        summary: "The platform's bank, with the bank's filters and paging",
        querystring: BankListQuerySchema,
        response: { 200: BankListSchema },
      },
    },
    (request) => platformBank.list(request.query),
  )
  app.get(
    '/platform-bank/questions/:id/',
    { schema: { ...docs, params: IdParamsSchema, response: { 200: BankQuestionSchema } } },
    (request) => platformBank.get(request.params.id),
  )
  app.post(
    '/platform-bank/questions/:id/copy/',
    {
      schema: {
        ...docs,
        summary: "A copy in the institute's bank, naming its source",
        params: IdParamsSchema,
        response: { 201: BankQuestionSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await platformBank.copy(request.params.id, actorOf(request))),
  )
  app.post(
    '/bank/questions/:id/update-from-source/',
    {
      schema: {
        ...docs,
        summary: "Takes the platform question's newer revision: a new revision of the copy",
        params: IdParamsSchema,
        response: { 200: BankQuestionSchema },
      },
    },
    (request) => platformBank.updateFromSource(request.params.id, actorOf(request)),
  )
}
