import {
  PracticeAnswerBodySchema,
  PracticeAnswerResultSchema,
  PracticeDeckSchema,
  PracticeParamsSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AttemptLifecycle } from '../attempts/attempts.service'
import type { PracticeService } from './practice.service'

const tags = ['practice']
const security = [{ bearer: [] }]

export const practiceRoutes: FastifyPluginAsyncZod<{ practice: PracticeService; lifecycle: AttemptLifecycle }> = async (
  app,
  { practice, lifecycle },
) => {
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
      return practice.answerCard(request.user, request.params.questionId, request.body)
    },
  )
}
