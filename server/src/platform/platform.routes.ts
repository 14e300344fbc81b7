import {
  ActAsSchema,
  AuditPageSchema,
  AuditQuerySchema,
  PlatformInstituteCreateSchema,
  PlatformInstituteIdParamsSchema,
  PlatformInstitutePageSchema,
  PlatformInstituteSchema,
  PlatformInstitutesQuerySchema,
  PlatformInstituteUpdateSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AuditLogService } from '../admin/audit-log.service'
import { actorOf } from '../audit/audit-log'
import type { PlatformService } from './platform.service'

/** A logo is a picture as question images take one (at most 5 MB, base64 a third more). */
const LOGO_BODY_LIMIT = 7 * 1024 * 1024

// docs/decisions/097: every route a platform admin's, on the platform's own address alone (404 on an institute's).
export const platformRoutes: FastifyPluginAsyncZod<{ platform: PlatformService; audit: AuditLogService }> = async (
  app,
  { platform, audit },
) => {
  // Settled before the body or query is parsed: anyone else gets 401/403 (404 on an institute's host), not a 400.
  app.addHook('onRequest', app.requirePlatformAdmin)
  const common = { tags: ['platform'], security: [{ bearer: [] }] }

  app.get(
    '/institutes/',
    {
      schema: {
        ...common,
        summary: "The deployment's institutes, with their usage",
        querystring: PlatformInstitutesQuerySchema,
        response: { 200: PlatformInstitutePageSchema },
      },
    },
    (request) => platform.list(request.query),
  )

  app.post(
    '/institutes/',
    {
      bodyLimit: LOGO_BODY_LIMIT,
      schema: { ...common, body: PlatformInstituteCreateSchema, response: { 201: PlatformInstituteSchema } },
    },
    async (request, reply) => reply.code(201).send(await platform.create(request.body, actorOf(request))),
  )

  app.get(
    '/institutes/:id/',
    { schema: { ...common, params: PlatformInstituteIdParamsSchema, response: { 200: PlatformInstituteSchema } } },
    (request) => platform.get(request.params.id),
  )

  app.patch(
    '/institutes/:id/',
    {
      bodyLimit: LOGO_BODY_LIMIT,
      schema: {
        ...common,
        params: PlatformInstituteIdParamsSchema,
        body: PlatformInstituteUpdateSchema,
        response: { 200: PlatformInstituteSchema },
      },
    },
    (request) => platform.update(request.params.id, request.body, actorOf(request)),
  )

  app.post(
    '/institutes/:id/act/',
    {
      schema: {
        ...common,
        summary: 'An admin token of the institute for 15 minutes, no refresh; in both audit trails',
        params: PlatformInstituteIdParamsSchema,
        response: { 200: ActAsSchema },
      },
    },
    (request) => platform.actAs(request.params.id, actorOf(request)),
  )

  app.get(
    '/audit/',
    {
      schema: {
        ...common,
        summary: "The platform's own audit trail, newest first",
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema },
      },
    },
    (request) => audit.list(request.query),
  )
}
