import { AttemptIdParamsSchema, ProgressSchema, ReportCardSchema, ResultListSchema } from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { ResultsService } from './results.service'

const tags = ['results']
const security = [{ bearer: [] }]

export const resultsRoutes: FastifyPluginAsyncZod<{ results: ResultsService }> = async (app, { results }) => {
  app.addHook('onRequest', app.authenticate)

  app.get('/', { schema: { tags, security, response: { 200: ResultListSchema } } }, (request) =>
    results.listResults(request.user),
  )

  app.get('/progress/', { schema: { tags, security, response: { 200: ProgressSchema } } }, (request) =>
    results.getProgress(request.user),
  )

  app.get(
    '/:attemptId/',
    { schema: { tags, security, params: AttemptIdParamsSchema, response: { 200: ReportCardSchema } } },
    (request) => results.getReport(request.user, request.params.attemptId),
  )
}
