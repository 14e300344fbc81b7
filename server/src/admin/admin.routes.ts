import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../context'

export const adminRoutes: FastifyPluginAsyncZod<AppContext> = async (_app, _context) => {}
