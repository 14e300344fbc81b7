import {
  AdminQuestionSchema,
  AdminQuizWithPaperSchema,
  SectionsBodySchema,
  AdminQuizListSchema,
  IdParamsSchema,
  AnyQuestionInputSchema,
  QuestionParamsSchema,
  QuizCreateSchema,
  QuizPatchSchema,
  QuizQuestionBodySchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import type { AdminService } from './admin.service'
import type { DraftsService } from './drafts.service'
import { acceptJsonOnly } from '../http/json-only'
import { questionImagesHook } from './image-fields'
import type { PicturesService } from '../pictures/pictures.service'

/** Questions carry SVG images (up to 200 KB each, on the question and on every option). */
export const QUESTION_BODY_LIMIT = 10 * 1024 * 1024

const docs = { tags: ['admin'], security: [{ bearer: [] }] }

export const adminRoutes: FastifyPluginAsyncZod<{
  admin: AdminService
  drafts: DraftsService
  pictures: PicturesService
}> = async (app, { admin, drafts, pictures }) => {
  // Any type (API.md "Question types"): a multiple question's pictures are kept as a choice question's are.
  const checkImages = questionImagesHook(AnyQuestionInputSchema, pictures)

  // onRequest: a learner gets 403 before a body is read or validated, and only an admin can make us parse 10 MB.
  app.addHook('onRequest', app.requireAdmin)
  acceptJsonOnly(app)

  app.get('/quizzes/', { schema: { ...docs, response: { 200: AdminQuizListSchema } } }, () => admin.listQuizzes())

  app.get(
    '/quizzes/:id/',
    { schema: { ...docs, params: IdParamsSchema, response: { 200: AdminQuizWithPaperSchema } } },
    (request) => admin.getQuiz(request.params.id),
  )

  app.post(
    '/quizzes/',
    { schema: { ...docs, body: QuizCreateSchema, response: { 201: AdminQuizWithPaperSchema } } },
    async (request, reply) => reply.code(201).send(await drafts.createQuiz(request.body, actorOf(request))),
  )

  for (const action of ['publish', 'unpublish'] as const) {
    app.post(
      `/quizzes/:id/${action}/`,
      { schema: { ...docs, params: IdParamsSchema, response: { 200: AdminQuizWithPaperSchema } } },
      (request) => drafts[action](request.params.id, actorOf(request)),
    )
  }

  app.post(
    '/quizzes/:id/duplicate/',
    { schema: { ...docs, params: IdParamsSchema, response: { 201: AdminQuizWithPaperSchema } } },
    async (request, reply) => reply.code(201).send(await drafts.duplicate(request.params.id, actorOf(request))),
  )

  for (const action of ['freeze', 'redraw'] as const) {
    app.post(
      `/quizzes/:id/${action}/`,
      { schema: { ...docs, params: IdParamsSchema, response: { 200: AdminQuizWithPaperSchema } } },
      (request) => admin[action](request.params.id, actorOf(request)),
    )
  }

  app.put(
    '/quizzes/:id/sections/',
    {
      schema: {
        ...docs,
        params: IdParamsSchema,
        body: SectionsBodySchema,
        response: { 200: AdminQuizWithPaperSchema },
      },
    },
    (request) => admin.replaceSections(request.params.id, request.body.sections, actorOf(request)),
  )

  app.patch(
    '/quizzes/:id/',
    {
      schema: { ...docs, params: IdParamsSchema, body: QuizPatchSchema, response: { 200: AdminQuizWithPaperSchema } },
    },
    (request) => admin.updateQuiz(request.params.id, request.body, actorOf(request)),
  )

  app.delete('/quizzes/:id/', { schema: { ...docs, params: IdParamsSchema } }, async (request, reply) => {
    await admin.deleteQuiz(request.params.id, actorOf(request))
    return reply.code(204).send()
  })

  app.post(
    '/quizzes/:id/questions/',
    {
      bodyLimit: QUESTION_BODY_LIMIT,
      preValidation: checkImages,
      schema: { ...docs, params: IdParamsSchema, body: QuizQuestionBodySchema, response: { 201: AdminQuestionSchema } },
    },
    async (request, reply) => {
      const body = request.body
      const question =
        'question_id' in body
          ? await admin.addBankQuestion(request.params.id, body.question_id, actorOf(request))
          : await admin.addQuestion(request.params.id, body, actorOf(request))
      return reply.code(201).send(question)
    },
  )

  app.put(
    '/quizzes/:id/questions/:questionId/',
    {
      bodyLimit: QUESTION_BODY_LIMIT,
      preValidation: checkImages,
      schema: {
        ...docs,
        params: QuestionParamsSchema,
        body: AnyQuestionInputSchema,
        response: { 200: AdminQuestionSchema },
      },
    },
    (request) => admin.replaceQuestion(request.params.id, request.params.questionId, request.body, actorOf(request)),
  )

  app.delete(
    '/quizzes/:id/questions/:questionId/',
    { bodyLimit: QUESTION_BODY_LIMIT, schema: { ...docs, params: QuestionParamsSchema } },
    async (request, reply) => {
      await admin.deleteQuestion(request.params.id, request.params.questionId, actorOf(request))
      return reply.code(204).send()
    },
  )
}
