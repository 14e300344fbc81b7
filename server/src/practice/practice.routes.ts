import {
  PracticeAnswerBodySchema,
  PracticeAnswerResultSchema,
  PracticeDeckSchema,
  PracticeParamsSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../context'
import { createAttemptLifecycle } from '../quizzes/attempts.service'
import { createQuestionPapers } from '../questions/question-papers'
import { createPracticeService } from './practice.service'

const tags = ['practice']
const security = [{ bearer: [] }]

/** API.md "Analysis and practice": the learner's mistake deck. */
export const practiceRoutes: FastifyPluginAsyncZod<AppContext> = async (app, context) => {
  const lifecycle = createAttemptLifecycle({ ...context, papers: createQuestionPapers() })
  const practice = createPracticeService(context)

  app.addHook('onRequest', app.authenticate)

  app.get('/', { schema: { tags, security, response: { 200: PracticeDeckSchema } } }, async (request) => {
    // An attempt whose time ran out adds its mistakes when it is settled: settle first, so they are in the deck.
    await lifecycle.settleExpired(request.user.id)
    return practice.getDeck(request.user)
  })

  app.post(
    '/:questionId/',
    {
      schema: {
        tags,
        security,
        params: PracticeParamsSchema,
        body: PracticeAnswerBodySchema,
        response: { 200: PracticeAnswerResultSchema },
      },
    },
    async (request) => {
      await lifecycle.settleExpired(request.user.id)
      return practice.answerCard(request.user, request.params.questionId, request.body.option_id)
    },
  )
}
