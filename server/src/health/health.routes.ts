import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../context'
import { answersUnderPressure } from '../http/overload'
import { pingDatabase } from './health.repository'

const HealthSchema = z.object({ status: z.enum(['ok', 'error']), database: z.enum(['ok', 'unreachable']) })

export const healthRoutes: FastifyPluginAsyncZod<AppContext> = async (app, { database }) => {
  app.get(
    '/',
    {
      schema: { tags: ['health'], response: { 200: HealthSchema, 503: HealthSchema } },
      config: answersUnderPressure,
    },
    async (request, reply) => {
      try {
        await pingDatabase(database.db)
        return { status: 'ok' as const, database: 'ok' as const }
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unreachable')
        return reply.status(503).send({ status: 'error' as const, database: 'unreachable' as const })
      }
    },
  )
}
