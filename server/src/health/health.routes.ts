import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { answersUnderPressure } from '../http/overload'
import type { HealthService } from './health.service'

const HealthSchema = z.object({ status: z.enum(['ok', 'error']), database: z.enum(['ok', 'unreachable']) })

export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService }> = async (app, { health }) => {
  app.get(
    '/',
    {
      schema: { tags: ['health'], response: { 200: HealthSchema, 503: HealthSchema } },
      config: answersUnderPressure,
    },
    async (request, reply) => {
      try {
        await health.reachDatabase()
        return { status: 'ok' as const, database: 'ok' as const }
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unreachable')
        return reply.status(503).send({ status: 'error' as const, database: 'unreachable' as const })
      }
    },
  )
}
