import { IdParamsSchema, LeaderboardSchema, LivePaperSchema } from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { LiveService } from './live.service'
import type { LivePapers } from './live-paper'

const tags = ['live mocks']
const security = [{ bearer: [] }]

/** API.md "Live mocks": registering for a mock's reminders, and its leaderboard, under /api/quizzes/:id/. */
export const liveRoutes: FastifyPluginAsyncZod<{ live: LiveService; livePapers: LivePapers }> = async (
  app,
  { live, livePapers },
) => {
  app.addHook('onRequest', app.authenticate)

  app.post('/:id/register/', { schema: { tags, security, params: IdParamsSchema } }, async (request, reply) => {
    await live.register(request.user, request.params.id)
    return reply.code(201).send()
  })

  app.delete('/:id/register/', { schema: { tags, security, params: IdParamsSchema } }, async (request, reply) => {
    await live.unregister(request.user, request.params.id)
    return reply.code(204).send()
  })

  app.get(
    '/:id/leaderboard/',
    { schema: { tags, security, params: IdParamsSchema, response: { 200: LeaderboardSchema } } },
    (request) => live.leaderboard(request.user, request.params.id),
  )

  app.get(
    '/:id/live-paper/',
    { schema: { tags, security, params: IdParamsSchema, response: { 200: LivePaperSchema } } },
    (request) => livePapers.livePaper(request.user, request.params.id),
  )
}
