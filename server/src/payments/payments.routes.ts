import {
  AdminPaymentPageSchema,
  AdminPaymentsQuerySchema,
  CreatePaymentBodySchema,
  IdParamsSchema,
  PaymentProviderListSchema,
  PaymentSchema,
  PaymentStartSchema,
} from '@quiz/contracts'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Config } from '../config'
import { fakeCheckoutRoutes } from './fake-checkout.routes'
import type { RateLimits } from '../http/rate-limit'
import type { PaymentPlace, PaymentService } from './payments.service'

const tags = ['payments']
const security = [{ bearer: [] }]

const backToApp = (reply: FastifyReply, id: number | undefined) =>
  reply.header('cache-control', 'no-store').redirect(id === undefined ? '/plans' : `/payments/${id}`, 303)

export const paymentRoutes: FastifyPluginAsyncZod<{
  payments: PaymentService
  rateLimits: RateLimits
  settings: Config['payments']
}> = async (app, { payments, rateLimits: { limiter, rules }, settings }) => {
  // With several institutes the provider sends the learner back to the host the payment was made on, whose
  // institute verifies it; that host is one of the institute's own (the request was matched to it).
  const publicProtocol = new URL(settings.publicUrl).protocol
  const placeOf = (request: FastifyRequest): PaymentPlace => ({
    institute: request.institute.id,
    publicUrl: request.institute.scoped ? `${publicProtocol}//${request.host}` : settings.publicUrl,
  })

  const learnerRoutes: FastifyPluginAsyncZod = async (learner) => {
    learner.addHook('onRequest', learner.authenticate)

    learner.get(
      '/providers/',
      { schema: { tags, security, response: { 200: PaymentProviderListSchema } } },
      (request) => payments.providers(request.institute.id),
    )

    learner.post(
      '/',
      { schema: { tags, security, body: CreatePaymentBodySchema, response: { 201: PaymentStartSchema } } },
      async (request, reply) => {
        await limiter.hit(rules.paymentStartPerUser, String(request.user.id))
        return reply.code(201).send(await payments.startPayment(request.user, request.body, placeOf(request)))
      },
    )

    learner.get(
      '/:id/',
      { schema: { tags, security, params: IdParamsSchema, response: { 200: PaymentSchema } } },
      (request) => payments.getPayment(request.user, request.params.id, request.institute.id),
    )
  }
  await app.register(learnerRoutes)

  if (settings.sandbox)
    app.log.warn('PAYMENT_SANDBOX=true: Khalti and eSewa test payments are accepted; no real money is taken.')
  if (settings.providers.includes('fake')) {
    app.log.warn(
      'PAYMENT_PROVIDERS includes fake: anyone can get paid access by pressing "Pay" on a checkout page this server serves itself; no money is taken. Development only.',
    )
  }
  // The providers' return routes (and the fake provider's pages): no token, the browser comes back from the provider.
  const returnRoutes: FastifyPluginAsyncZod = async (back) => {
    back.addHook('onRequest', async (request) => {
      await limiter.hit(rules.paymentReturnPerIp, request.ip)
    })

    // Khalti sends the browser to return_url with pidx, status, amount...: only pidx is used, to look it up.
    back.get(
      '/khalti/return/',
      { schema: { tags, querystring: z.object({ pidx: z.string().max(100).optional() }) } },
      async (request, reply) =>
        backToApp(reply, await payments.khaltiReturned(request.query.pidx, request.institute.id)),
    )

    back.get(
      '/esewa/return/:id/success/',
      { schema: { tags, params: IdParamsSchema, querystring: z.object({ data: z.string().max(10_000).optional() }) } },
      async (request, reply) =>
        backToApp(reply, await payments.esewaSucceeded(request.params.id, request.query.data, request.institute.id)),
    )

    back.get('/esewa/return/:id/failure/', { schema: { tags, params: IdParamsSchema } }, async (request, reply) =>
      backToApp(reply, await payments.esewaFailed(request.params.id, request.institute.id)),
    )

    if (settings.providers.includes('fake')) {
      // Not this plugin's options: they carry its prefix, which would be applied twice.
      await back.register(fakeCheckoutRoutes, { payments, backToApp })
    }
  }
  await app.register(returnRoutes)
}

export const adminPaymentRoutes: FastifyPluginAsyncZod<{ payments: PaymentService }> = async (app, { payments }) => {
  app.addHook('onRequest', app.requireAdmin)
  app.get(
    '/',
    {
      schema: {
        tags: ['admin'],
        security,
        querystring: AdminPaymentsQuerySchema,
        response: { 200: AdminPaymentPageSchema },
      },
    },
    (request) => payments.listForAdmin(request.query.status, request.query.page),
  )
}
