import {
  FetchedQuestionSchema,
  IdParamsSchema,
  QuestionNumberParamsSchema,
  QuestionQuerySchema,
  QuizAttemptSchema,
  SaveAnswersBodySchema,
  SaveAnswersResultSchema,
  SectionsNextResultSchema,
  SubmitAttemptBodySchema,
  SubmitResultSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { sentAsWritten } from '../http/serializer'
import type { AttemptSessionService } from './attempt-session.service'
import type { SubmitService } from './submit.service'

const tags = ['quizzes']
const security = [{ bearer: [] }]

/** API.md "Quizzes for learners": response schemas whitelist output, so no is_correct or hint. */
export const attemptsRoutes: FastifyPluginAsyncZod<{ session: AttemptSessionService; submit: SubmitService }> = async (
  app,
  { session, submit },
) => {
  // onRequest, not preHandler: a request without a token gets 401 before its body or path is even looked at.
  app.addHook('onRequest', app.authenticate)

  app.get(
    '/:id/',
    { schema: { tags, security, params: IdParamsSchema, response: { 200: QuizAttemptSchema } } },
    (request) => session.startAttempt(request.user, request.params.id),
  )

  app.get(
    '/:id/question/:n/',
    {
      schema: {
        tags,
        security,
        params: QuestionNumberParamsSchema,
        querystring: QuestionQuerySchema,
        response: { 200: FetchedQuestionSchema },
      },
    },
    (request) =>
      session
        .getQuestion(request.user, request.params.id, request.params.n, request.query.passages_held)
        .then(sentAsWritten),
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
    (request) => session.saveAnswers(request.user, request.params.id, request.body),
  )

  app.post(
    '/:id/sections/next/',
    { schema: { tags, security, params: IdParamsSchema, response: { 200: SectionsNextResultSchema } } },
    (request) => session.nextSection(request.user, request.params.id),
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
    (request) => submit.submitAttempt(request.user, request.params.id, request.body),
  )
}
