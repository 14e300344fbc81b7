import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../context'

export const quizzesRoutes: FastifyPluginAsyncZod<AppContext> = async (_app, _context) => {}
