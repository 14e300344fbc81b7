import underPressure from '@fastify/under-pressure'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config'
import { AppError } from './errors'

// Operators must still see health and metrics under pressure.
export const answersUnderPressure = { pressureHandler: () => undefined }

// The event loop's delay is what a queued request waits on top of its own work: the figure that says "too late".
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
