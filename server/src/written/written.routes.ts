import {
  IdParamsSchema,
  RubricInputSchema,
  RubricResultSchema,
  RubricSchema,
  RubricStatsQuerySchema,
  RubricStatsSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { acceptJsonOnly } from '../http/json-only'
import type { RubricService } from './rubric.service'

const docs = { tags: ['admin'], security: [{ bearer: [] }] }

export const rubricRoutes: FastifyPluginAsyncZod<{ rubrics: RubricService }> = async (app, { rubrics }) => {
  app.addHook('onRequest', app.requireAdmin)
  acceptJsonOnly(app)

  app.get(
    '/questions/:id/rubric/',
    { schema: { ...docs, params: IdParamsSchema, response: { 200: RubricSchema } } },
    (request) => rubrics.get(request.params.id),
  )
  app.get(
    '/questions/:id/rubric/stats/',
    {
      schema: {
        ...docs,
        params: IdParamsSchema,
        querystring: RubricStatsQuerySchema,
        response: { 200: RubricStatsSchema },
      },
    },
    (request) => rubrics.stats(request.params.id, request.query.quiz_id),
  )
  app.put(
    '/questions/:id/rubric/',
    { schema: { ...docs, params: IdParamsSchema, body: RubricInputSchema, response: { 200: RubricResultSchema } } },
    (request) => rubrics.put(request.params.id, request.body, actorOf(request)),
  )
}
