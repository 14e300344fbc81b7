import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { AppContext } from '../context'

export const usersRoutes: FastifyPluginAsyncZod<AppContext> = async (_app, _context) => {}
