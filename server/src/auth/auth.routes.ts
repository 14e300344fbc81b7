import {
  JoinRequestSchema,
  LoginRequestSchema,
  LoginSessionListSchema,
  RefreshRequestSchema,
  RevokedSessionsSchema,
  SessionParamsSchema,
  TokenPairSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { loginClientOf } from '../http/login-client'
import type { AuthService } from './auth.service'
import type { OtpService } from './otp.service'

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService; otp: OtpService }> = async (app, { auth, otp }) => {
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
    (request) => auth.login(request.body, loginClientOf(request)),
  )

  // A sign-in that makes a learner's membership where it may (API.md "Institutes"); the limits of the sign-in used.
  app.post(
    '/institute/join/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Join the institute of this host with the credentials of a sign-in',
        body: JoinRequestSchema,
        response: { 201: TokenPairSchema },
      },
    },
    async (request, reply) => {
      const { body } = request
      const client = loginClientOf(request)
      const tokens =
        'otp' in body
          ? await otp.verify({ ...body, purpose: 'login' }, client, { join: true })
          : await auth.login(body, client, { join: true })
      return reply.status(201).send(tokens as { access: string; refresh: string })
    },
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
    (request) => auth.refresh(request.body.refresh, loginClientOf(request)),
  )

  app.post(
    '/token/revoke/',
    { schema: { tags: ['auth'], summary: "Log out: revoke the login's refresh tokens", body: RefreshRequestSchema } },
    async (request, reply) => {
      await auth.revoke(request.body.refresh, request.ip)
      return reply.status(204).send()
    },
  )

  const signedIn = { tags: ['auth'], security: [{ bearer: [] }] }

  app.get(
    '/auth/sessions/',
    {
      schema: {
        ...signedIn,
        summary: 'My live logins, the current one marked',
        response: { 200: LoginSessionListSchema },
      },
      preHandler: app.authenticateLiveLogin,
    },
    (request) => auth.listSessions(request.user.id, request.user.sessionId),
  )

  app.delete(
    '/auth/sessions/:id/',
    {
      schema: { ...signedIn, summary: 'Log out one of my logins', params: SessionParamsSchema },
      preHandler: app.authenticateLiveLogin,
    },
    async (request, reply) => {
      await auth.revokeSession(request.user.id, request.params.id, actorOf(request))
      return reply.status(204).send()
    },
  )

  app.post(
    '/auth/sessions/revoke-others/',
    {
      schema: {
        ...signedIn,
        summary: 'Log out every login of mine but this one',
        response: { 200: RevokedSessionsSchema },
      },
      preHandler: app.authenticateLiveLogin,
    },
    (request) => auth.revokeOtherSessions(request.user.id, request.user.sessionId, actorOf(request)),
  )
}
