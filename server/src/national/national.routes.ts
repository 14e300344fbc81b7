import {
  AdminNationalMockListSchema,
  AdminNationalMockSchema,
  LeaderboardSchema,
  NationalMockCreateSchema,
  NationalMockIdParamsSchema,
  NationalMockListSchema,
  PlatformNationalMockListSchema,
  PlatformNationalMockSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import type { NationalService } from './national.service'

const security = [{ bearer: [] }]
const params = NationalMockIdParamsSchema

/** `/api/platform/national-mocks/`: the platform admins' (on the platform's address alone, decision 097). */
export const platformNationalRoutes: FastifyPluginAsyncZod<{ national: NationalService }> = async (
  app,
  { national },
) => {
  app.addHook('onRequest', app.requirePlatformAdmin)
  const tags = ['platform']
  app.post(
    '/',
    { schema: { tags, security, body: NationalMockCreateSchema, response: { 201: PlatformNationalMockSchema } } },
    async (request, reply) => reply.code(201).send(await national.create(request.body, actorOf(request))),
  )
  app.get('/', { schema: { tags, security, response: { 200: PlatformNationalMockListSchema } } }, () =>
    national.listForPlatform(),
  )
  app.get('/:id/', { schema: { tags, security, params, response: { 200: PlatformNationalMockSchema } } }, (request) =>
    national.getForPlatform(request.params.id),
  )
  // The national board on the platform's address, where the learners' route (an institute's) does not answer.
  app.get(
    '/:id/leaderboard/',
    { schema: { tags, security, params, response: { 200: LeaderboardSchema } } },
    (request) => national.leaderboardForPlatform(request.params.id),
  )
}

/** `/api/admin/national-mocks/`: an institute's admins see what the platform offers and take part. */
export const adminNationalRoutes: FastifyPluginAsyncZod<{ national: NationalService }> = async (app, { national }) => {
  app.addHook('onRequest', app.requireAdmin)
  const tags = ['admin']
  app.get('/', { schema: { tags, security, response: { 200: AdminNationalMockListSchema } } }, (request) =>
    national.listForAdmin(request.institute.id),
  )
  app.post(
    '/:id/join/',
    { schema: { tags, security, params, response: { 200: AdminNationalMockSchema, 201: AdminNationalMockSchema } } },
    async (request, reply) => {
      const { created, body } = await national.join(request.params.id, request.institute.id, actorOf(request))
      return reply.code(created ? 201 : 200).send(body)
    },
  )
  app.delete('/:id/join/', { schema: { tags, security, params } }, async (request, reply) => {
    await national.leave(request.params.id, request.institute.id)
    return reply.code(204).send()
  })
}

/** `/api/national-mocks/`: a learner's, on the institute's host. */
export const nationalRoutes: FastifyPluginAsyncZod<{ national: NationalService }> = async (app, { national }) => {
  app.addHook('onRequest', app.authenticate)
  const tags = ['live mocks']
  app.get('/', { schema: { tags, security, response: { 200: NationalMockListSchema } } }, (request) =>
    national.listForLearner(request.institute.id),
  )
  app.get(
    '/:id/leaderboard/',
    { schema: { tags, security, params, response: { 200: LeaderboardSchema } } },
    (request) => national.leaderboard(request.user, request.params.id, request.institute.id),
  )
}
