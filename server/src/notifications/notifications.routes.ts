import {
  MarkReadBodySchema,
  NotificationPageSchema,
  NotificationsQuerySchema,
  PushKeySchema,
  PushSubscriptionBodySchema,
  PushUnsubscribeBodySchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { RateLimits } from '../http/rate-limit'
import type { NotificationService } from './notifications.service'

const tags = ['notifications']
const security = [{ bearer: [] }]

export const notificationRoutes: FastifyPluginAsyncZod<{ notifications: NotificationService }> = async (
  app,
  { notifications },
) => {
  app.addHook('onRequest', app.authenticate)

  app.get(
    '/',
    { schema: { tags, security, querystring: NotificationsQuerySchema, response: { 200: NotificationPageSchema } } },
    (request) => notifications.page(request.user.id, request.query.page),
  )

  app.post('/read/', { schema: { tags, security, body: MarkReadBodySchema } }, async (request, reply) => {
    await notifications.markRead(request.user.id, request.body)
    return reply.code(204).send()
  })
}

// No token for the VAPID key: the service worker may ask before sign-in.
export const pushRoutes: FastifyPluginAsyncZod<{ notifications: NotificationService; rateLimits: RateLimits }> = async (
  app,
  { notifications, rateLimits: { limiter, rules } },
) => {
  app.get('/key/', { schema: { tags, response: { 200: PushKeySchema } } }, () => ({
    public_key: notifications.publicKey(),
  }))

  const subscriptionRoutes: FastifyPluginAsyncZod = async (learner) => {
    learner.addHook('onRequest', learner.authenticate)
    learner.post(
      '/subscriptions/',
      { schema: { tags, security, body: PushSubscriptionBodySchema } },
      async (request, reply) => {
        await limiter.hit(rules.pushSubscribePerUser, String(request.user.id))
        await notifications.subscribe(request.user.id, request.body)
        return reply.code(201).send()
      },
    )
    learner.delete(
      '/subscriptions/',
      { schema: { tags, security, body: PushUnsubscribeBodySchema } },
      async (request, reply) => {
        await notifications.unsubscribe(request.user.id, request.body.endpoint)
        return reply.code(204).send()
      },
    )
  }
  await app.register(subscriptionRoutes)
}
