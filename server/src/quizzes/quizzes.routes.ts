import {
  IdParamsSchema,
  QuestionNumberParamsSchema,
  QuizAttemptSchema,
  QuizListSchema,
  QuizQuestionSchema,
  SaveAnswersBodySchema,
  SaveAnswersResultSchema,
  SubmitAttemptBodySchema,
  SubmitResultSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../context'
import { createAttemptLifecycle } from './attempts.service'
import { createQuestionPapers } from './question-papers'
import { createQuizService } from './quizzes.service'

const tags = ['quizzes']
const security = [{ bearer: [] }]

/** Learner routes of API.md "Quizzes for learners". Response schemas whitelist output: no is_correct or hint. */
export const quizzesRoutes: FastifyPluginAsyncZod<AppContext> = async (app, context) => {
  const papers = createQuestionPapers()
  const lifecycle = createAttemptLifecycle({ ...context, papers })
  const quizzes = createQuizService({ ...context, papers, lifecycle })

  // onRequest, not preHandler: a request without a token gets 401 before its body or path is even looked at.
  app.addHook('onRequest', app.authenticate)

  app.get('/', { schema: { tags, security, response: { 200: QuizListSchema } } }, (request) =>
    quizzes.listQuizzes(request.user),
  )

  app.get(
    '/:id/',
    { schema: { tags, security, params: IdParamsSchema, response: { 200: QuizAttemptSchema } } },
    (request) => quizzes.startAttempt(request.user, request.params.id),
  )

  app.get(
    '/:id/question/:n/',
    { schema: { tags, security, params: QuestionNumberParamsSchema, response: { 200: QuizQuestionSchema } } },
    (request) => quizzes.getQuestion(request.user, request.params.id, request.params.n),
  )

  app.put(
    '/:id/answers/',
    {
      schema: {
        tags,
        security,
        params: IdParamsSchema,
        body: SaveAnswersBodySchema,
        response: { 200: SaveAnswersResultSchema },
      },
    },
    (request) => quizzes.saveAnswers(request.user, request.params.id, request.body),
  )

  app.post(
    '/:id/submit/',
    {
      schema: {
        tags,
        security,
        params: IdParamsSchema,
        body: SubmitAttemptBodySchema,
        response: { 200: SubmitResultSchema },
      },
    },
    (request) => quizzes.submitAttempt(request.user, request.params.id, request.body),
  )
}
