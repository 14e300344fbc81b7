import {
  EvaluationInputSchema,
  EvaluationResultSchema,
  IdParamsSchema,
  MarkingAnswerSchema,
  MarkingOverviewSchema,
  MarkingParamsSchema,
  MarkingQuizzesQuerySchema,
  MarkingQuizzesSchema,
  NoContentSchema,
  ReleaseInputSchema,
  ReleaseResultSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { acceptJsonOnly } from '../http/json-only'
import type { MarkingService } from './marking.service'

const docs = { tags: ['marking'], security: [{ bearer: [] }] }

/** API.md "Written answers marked by rubric", Marking: admins and markers, under /api/admin. */
export const markingRoutes: FastifyPluginAsyncZod<{ marking: MarkingService }> = async (app, { marking }) => {
  app.addHook('onRequest', app.requireMarker)
  acceptJsonOnly(app)

  app.get(
    '/marking/',
    { schema: { ...docs, querystring: MarkingQuizzesQuerySchema, response: { 200: MarkingQuizzesSchema } } },
    (request) => marking.quizzes(request.query.page, request.user.id),
  )
  app.get(
    '/quizzes/:id/marking/',
    { schema: { ...docs, params: IdParamsSchema, response: { 200: MarkingOverviewSchema } } },
    (request) => marking.overview(request.params.id),
  )
  app.post(
    '/quizzes/:id/marking/:questionId/next/',
    { schema: { ...docs, params: MarkingParamsSchema, response: { 200: MarkingAnswerSchema, 204: NoContentSchema } } },
    async (request, reply) => {
      const answer = await marking.next(request.params.id, request.params.questionId, actorOf(request))
      return answer ?? reply.code(204).send(null)
    },
  )
  app.post(
    '/quizzes/:id/marking/release/',
    { schema: { ...docs, params: IdParamsSchema, body: ReleaseInputSchema, response: { 200: ReleaseResultSchema } } },
    (request) =>
      marking.release(request.params.id, request.body?.question_ids, actorOf(request), request.user.is_admin),
  )
  app.put(
    '/written-answers/:id/evaluation/',
    {
      schema: {
        ...docs,
        params: IdParamsSchema,
        body: EvaluationInputSchema,
        response: { 200: EvaluationResultSchema },
      },
    },
    (request) => marking.evaluate(request.params.id, request.body, actorOf(request), request.user.is_admin),
  )
  app.get(
    '/written-answers/:id/',
    { schema: { ...docs, params: IdParamsSchema, response: { 200: MarkingAnswerSchema } } },
    (request) => marking.answer(request.params.id, { id: request.user.id, isAdmin: request.user.is_admin }),
  )
  app.delete('/written-answers/:id/claim/', { schema: { ...docs, params: IdParamsSchema } }, async (request, reply) => {
    await marking.endClaim(request.params.id, actorOf(request), request.user.is_admin)
    return reply.code(204).send()
  })
}
