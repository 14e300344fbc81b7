import { LegacyFontToolRequestSchema, LegacyFontToolResponseSchema } from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { acceptJsonOnly } from '../../http/json-only'
import { legacyToUnicode } from './convert'

export const legacyFontToolRoutes: FastifyPluginAsyncZod = async (app) => {
  // Before the body is read: a learner gets 403, not a 400 about the body.
  app.addHook('onRequest', app.requireAdmin)
  acceptJsonOnly(app)

  app.post(
    '/',
    {
      schema: {
        tags: ['admin'],
        summary: 'Convert text typed in Preeti or Kantipur to Unicode Devanagari (docs/legacy-fonts.md)',
        security: [{ bearer: [] }],
        body: LegacyFontToolRequestSchema,
        response: { 200: LegacyFontToolResponseSchema },
      },
    },
    (request) => ({ unicode: legacyToUnicode(request.body.text, request.body.font) }),
  )
}
