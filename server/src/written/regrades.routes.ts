import {
  IdParamsSchema,
  RegradeDecisionInputSchema,
  RegradeQueueEntrySchema,
  RegradeQueueQuerySchema,
  RegradeQueueSchema,
  RegradeRequestInputSchema,
  RegradeRequestSchema,
  WrittenAnswerParamsSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { acceptJsonOnly } from '../http/json-only'
import type { RegradeService } from './regrades.service'

const security = [{ bearer: [] }]

/** API.md "Written answers marked by rubric", Regrade requests: the learner's request, under /api/results. */
export const regradeRequestRoutes: FastifyPluginAsyncZod<{ regrades: RegradeService }> = async (app, { regrades }) => {
  app.addHook('onRequest', app.authenticate)
  acceptJsonOnly(app)

  app.post(
    '/:attemptId/written/:questionId/regrade/',
    {
      schema: {
        tags: ['results'],
        security,
        params: WrittenAnswerParamsSchema,
        body: RegradeRequestInputSchema,
        response: { 201: RegradeRequestSchema },
      },
    },
    async (request, reply) => {
      const { attemptId, questionId } = request.params
      return reply.code(201).send(await regrades.request(request.user, attemptId, questionId, request.body))
    },
  )
}

/** The queue and decisions, under /api/admin: admins, and markers for the questions they mark. */
export const regradeQueueRoutes: FastifyPluginAsyncZod<{ regrades: RegradeService }> = async (app, { regrades }) => {
  app.addHook('onRequest', app.requireMarker)
  acceptJsonOnly(app)

  app.get(
    '/regrades/',
    {
      schema: {
        tags: ['marking'],
        security,
        querystring: RegradeQueueQuerySchema,
        response: { 200: RegradeQueueSchema },
      },
    },
    (request) => regrades.queue(request.query, { id: request.user.id, isAdmin: request.user.is_admin }),
  )
  app.patch(
    '/regrades/:id/',
    {
      schema: {
        tags: ['marking'],
        security,
        params: IdParamsSchema,
        body: RegradeDecisionInputSchema,
        response: { 200: RegradeQueueEntrySchema },
      },
    },
    (request) => regrades.decide(request.params.id, request.body, actorOf(request), request.user.is_admin),
  )
}
