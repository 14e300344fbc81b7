import { CreatedQuizSchema, CreateQuizFromJsonSchema } from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { QUESTION_BODY_LIMIT } from './admin.routes'
import type { AdminService } from './admin.service'
import { acceptJsonOnly } from '../http/json-only'
import { quizImagesHook } from './image-fields'
import type { PicturesService } from '../pictures/pictures.service'

// Under /api/quizzes for the web app's sake, but the admin feature's: its own plugin beside the learners' quiz routes.
export const createFromJsonRoutes: FastifyPluginAsyncZod<{ admin: AdminService; pictures: PicturesService }> = async (
  app,
  { admin, pictures },
) => {
  acceptJsonOnly(app)

  app.post(
    '/create-from-json/',
    {
      bodyLimit: QUESTION_BODY_LIMIT,
      onRequest: app.requireAdmin,
      preValidation: quizImagesHook(CreateQuizFromJsonSchema, pictures),
      schema: {
        tags: ['admin'],
        security: [{ bearer: [] }],
        body: CreateQuizFromJsonSchema,
        response: { 201: CreatedQuizSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await admin.createQuizFromJson(request.body, actorOf(request))),
  )
}
