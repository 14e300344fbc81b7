import { AuditPageSchema, AuditQuerySchema } from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AuditLogService } from './audit-log.service'

export const auditLogRoutes: FastifyPluginAsyncZod<{ auditLog: AuditLogService }> = async (app, { auditLog }) => {
  // Settled before the query is parsed: a learner gets 403, not a 400 about their filters.
  app.addHook('onRequest', app.requireAdmin)

  app.get(
    '/',
    {
      schema: {
        tags: ['admin'],
        summary: 'The audit trail, newest first (docs/decisions/018)',
        security: [{ bearer: [] }],
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema },
      },
    },
    (request) => auditLog.list(request.query),
  )
}
