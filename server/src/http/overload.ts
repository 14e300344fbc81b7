import underPressure from '@fastify/under-pressure'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config'
import { AppError } from './errors'

/** Route config that lets a route answer even under pressure: operators must still see health and metrics. */
export const answersUnderPressure = { pressureHandler: () => undefined }

/**
 * Sheds load instead of queueing without end (API.md "Operations"): once the event loop lags more than the
 * configured delay, every request gets 503 with `Retry-After` until it recovers. The loop's delay is what a
 * queued request waits on top of its own work, so it is the figure that says "answers are now too late".
 */
export async function registerOverloadShedding(
  app: FastifyInstance,
  { maxEventLoopDelayMs, retryAfterSeconds }: Config['overload'],
) {
  if (maxEventLoopDelayMs === 0) return
  class Overloaded extends AppError {
    constructor() {
      super(503, 'service_unavailable', 'The server is busy. Please try again in a few seconds.', undefined, {
        'retry-after': String(retryAfterSeconds),
      })
    }
  }
  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    retryAfter: retryAfterSeconds,
    customError: Overloaded,
  })
}
