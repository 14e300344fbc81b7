import { InstituteSettingsSchema, InstituteSettingsUpdateSchema } from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import type { InstituteSettingsService } from './settings.service'

const docs = { tags: ['admin'], security: [{ bearer: [] }] }

/** `/api/admin/institute/settings/`: the admins of the request's institute, for that institute only. */
export const instituteSettingsRoutes: FastifyPluginAsyncZod<{ settings: InstituteSettingsService }> = async (
  app,
  { settings },
) => {
  app.addHook('onRequest', app.requireAdmin)

  app.get('/', { schema: { ...docs, response: { 200: InstituteSettingsSchema } } }, (request) =>
    settings.read(request.institute.id),
  )

  app.put(
    '/',
    { schema: { ...docs, body: InstituteSettingsUpdateSchema, response: { 200: InstituteSettingsSchema } } },
    (request) => settings.update(request.institute.id, request.body, actorOf(request)),
  )
}
