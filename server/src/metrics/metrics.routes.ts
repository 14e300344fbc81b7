import { timingSafeEqual } from 'node:crypto'
import type { FastifyPluginAsync } from 'fastify'
import { NotAuthenticated } from '../http/errors'
import { answersUnderPressure } from '../http/overload'
import { metricsText, type Metrics } from '../lib/metrics'

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

// Registered only when METRICS_TOKEN is set.
export const metricsRoutes: FastifyPluginAsync<{ metrics: Metrics; token: string }> = async (
  app,
  { metrics, token },
) => {
  app.get('/', { schema: { hide: true }, config: answersUnderPressure }, async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? ''
    if (!sameSecret(given, token)) throw new NotAuthenticated('A valid metrics token is required.')
    return reply.type(metrics.registry.contentType).send(await metricsText(metrics))
  })
}
