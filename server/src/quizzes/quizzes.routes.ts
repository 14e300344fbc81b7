import { QuizListSchema } from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { QuizService } from './quizzes.service'

const tags = ['quizzes']
const security = [{ bearer: [] }]

export const quizzesRoutes: FastifyPluginAsyncZod<{ quizzes: QuizService }> = async (app, { quizzes }) => {
  // onRequest, not preHandler: a request without a token gets 401 before its body or path is even looked at.
  app.addHook('onRequest', app.authenticate)

  app.get('/', { schema: { tags, security, response: { 200: QuizListSchema } } }, (request) =>
    quizzes.listQuizzes(request.user),
  )
}
