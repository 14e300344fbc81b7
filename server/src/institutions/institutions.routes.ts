import {
  AdminUserPageSchema,
  AdminUserPatchSchema,
  AdminUserSchema,
  AdminUsersQuerySchema,
  IdParamsSchema,
  QuizAttemptPageSchema,
  QuizAttemptsCsvQuerySchema,
  QuizAttemptsQuerySchema,
  QuizStatisticsQuerySchema,
  QuizStatisticsSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { acceptJsonOnly } from '../http/json-only'
import type { LearnersService } from './learners.service'
import type { ReportsService } from './reports.service'

const docs = { tags: ['institutions'], security: [{ bearer: [] }] }

export const institutionRoutes: FastifyPluginAsyncZod<{ reports: ReportsService; learners: LearnersService }> = async (
  app,
  { reports, learners },
) => {
  // Who may call is settled before anything is parsed: a learner gets 403, not a 400 about their query.
  app.addHook('onRequest', app.requireAdmin)
  acceptJsonOnly(app)

  app.get(
    '/quizzes/:id/attempts/',
    {
      schema: {
        ...docs,
        params: IdParamsSchema,
        querystring: QuizAttemptsQuerySchema,
        response: { 200: QuizAttemptPageSchema },
      },
    },
    (request) => reports.listAttempts(request.params.id, request.query),
  )

  app.get(
    '/quizzes/:id/attempts.csv',
    {
      compress: false,
      schema: { ...docs, params: IdParamsSchema, querystring: QuizAttemptsCsvQuerySchema },
    },
    async (request, reply) => {
      const stream = await reports.attemptsCsv(request.params.id, request.query.which)
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="quiz-${request.params.id}-attempts-${request.query.which}.csv"`,
        )
        .send(stream)
    },
  )

  app.get(
    '/quizzes/:id/statistics/',
    {
      schema: {
        ...docs,
        params: IdParamsSchema,
        querystring: QuizStatisticsQuerySchema,
        response: { 200: QuizStatisticsSchema },
      },
    },
    (request) => reports.statistics(request.params.id, request.query.which),
  )

  app.get(
    '/users/',
    { schema: { ...docs, querystring: AdminUsersQuerySchema, response: { 200: AdminUserPageSchema } } },
    (request) => learners.listUsers(request.institute.id, request.query),
  )

  app.patch(
    '/users/:id/',
    { schema: { ...docs, params: IdParamsSchema, body: AdminUserPatchSchema, response: { 200: AdminUserSchema } } },
    (request) => learners.updateUser(request.institute.id, request.params.id, request.body, actorOf(request)),
  )
}
