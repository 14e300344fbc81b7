import { AttemptIdParamsSchema, ProgressSchema, ReportCardSchema, ResultListSchema } from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../context'
import { createAttemptLifecycle } from '../quizzes/attempts.service'
import { createQuestionPapers } from '../questions/question-papers'
import { createResultsService } from './results.service'

const tags = ['results']
const security = [{ bearer: [] }]

/** API.md "Results": the learner's finished attempts and their report cards. */
export const resultsRoutes: FastifyPluginAsyncZod<AppContext> = async (app, context) => {
  const lifecycle = createAttemptLifecycle({ ...context, papers: createQuestionPapers() })
  const results = createResultsService({ ...context, lifecycle })

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
