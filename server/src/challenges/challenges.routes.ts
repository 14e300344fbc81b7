import {
  AttemptIdParamsSchema,
  FlagQueueQuerySchema,
  FlagQueueSchema,
  FlagRequestSchema,
  FlagSchema,
  KeyDecisionRequestSchema,
  KeyDecisionResultSchema,
  KeyQuestionParamsSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { acceptJsonOnly } from '../http/json-only'
import type { FlagQueueService } from './flag-queue.service'
import type { FlagsService } from './flags.service'
import type { KeyDecisionService } from './key-decision.service'

const tags = ['challenges']
const security = [{ bearer: [] }]

/** API.md "Answer-key challenges": a learner's flag, under /api/results. */
export const flagRoutes: FastifyPluginAsyncZod<{ flags: FlagsService }> = async (app, { flags }) => {
  app.addHook('onRequest', app.authenticate)
  acceptJsonOnly(app)

  app.post(
    '/:attemptId/flags/',
    {
      schema: {
        tags,
        security,
        params: AttemptIdParamsSchema,
        body: FlagRequestSchema,
        response: { 201: FlagSchema },
      },
    },
    async (request, reply) => {
      const flag = await flags.flagQuestion(request.user, request.params.attemptId, request.body)
      return reply.status(201).send(flag)
    },
  )
}

/** API.md "Answer-key challenges": the admin's queue and key decisions, under /api/admin. */
export const keyDecisionRoutes: FastifyPluginAsyncZod<{
  queue: FlagQueueService
  decisions: KeyDecisionService
}> = async (app, { queue, decisions }) => {
  app.addHook('onRequest', app.requireAdmin)
  acceptJsonOnly(app)

  app.get(
    '/flags/',
    { schema: { tags, security, querystring: FlagQueueQuerySchema, response: { 200: FlagQueueSchema } } },
    (request) => queue.listQueue(request.query),
  )

  app.post(
    '/questions/:questionId/key/',
    {
      schema: {
        tags,
        security,
        params: KeyQuestionParamsSchema,
        body: KeyDecisionRequestSchema,
        response: { 200: KeyDecisionResultSchema },
      },
    },
    (request) => decisions.decide(actorOf(request), request.params.questionId, request.body),
  )
}
