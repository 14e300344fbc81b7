import { LoginRequestSchema, RefreshRequestSchema, TokenPairSchema } from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../context'
import { createRateLimiter, rateLimitRules } from '../http/rate-limit'
import { createAuthService } from './auth.service'

/** API.md "Tokens and sessions". Registered with prefix /api. */
export const authRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { config, database, clock, tokens }) => {
  const auth = createAuthService({
    database,
    clock,
    tokens,
    limiter: createRateLimiter({ database, clock }),
    rules: rateLimitRules(config.rateLimits),
  })

  app.post(
    '/token/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in with username and password',
        body: LoginRequestSchema,
        response: { 200: TokenPairSchema },
      },
    },
    (request) => auth.login(request.body, request.ip),
  )

  app.post(
    '/token/refresh/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Rotate a refresh token',
        body: RefreshRequestSchema,
        response: { 200: TokenPairSchema },
      },
    },
    (request) => auth.refresh(request.body.refresh, request.ip),
  )

  app.post(
    '/token/revoke/',
    { schema: { tags: ['auth'], summary: "Log out: revoke the login's refresh tokens", body: RefreshRequestSchema } },
    async (request, reply) => {
      await auth.revoke(request.body.refresh, request.ip)
      return reply.status(204).send()
    },
  )
}
