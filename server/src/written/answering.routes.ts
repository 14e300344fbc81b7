import {
  PageOrderInputSchema,
  WordCountSchema,
  WrittenAnswerParamsSchema,
  writtenAnswerLimits,
  writtenAnswerMessages,
  WrittenPageImageParamsSchema,
  WrittenPageImageQuerySchema,
  WrittenPageListSchema,
  WrittenPageParamsSchema,
  WrittenPageSchema,
  WrittenResultSchema,
  WrittenTextInputSchema,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { acceptJsonOnly } from '../http/json-only'
import { photoBodyLimit, withPhotoForm, type PhotoForm } from '../http/photo-form'
import type { AnsweringService } from './answering.service'

const docs = { tags: ['attempts'], security: [{ bearer: [] }] }
const pageForm: PhotoForm = { photoBytes: writtenAnswerLimits.photoBytes, messages: writtenAnswerMessages }

/** Under /api: answering written questions (/attempts/...), their results (/results/...) and page images. */
export const answeringRoutes: FastifyPluginAsyncZod<{ answering: AnsweringService }> = async (app, { answering }) => {
  // The image's signed address is its guard: an <img> sends no bearer token.
  app.get(
    '/written-pages/:pageId/',
    { schema: { tags: ['attempts'], params: WrittenPageImageParamsSchema, querystring: WrittenPageImageQuerySchema } },
    async (request, reply) => {
      const image = await answering.pageImage({ ...request.params, ...request.query })
      // The browser keeps the redirect no longer than the store's address lives.
      if ('redirect' in image)
        return reply.header('cache-control', `private, max-age=${image.maxAgeSeconds}`).redirect(image.redirect, 302)
      return reply
        .header('cache-control', `private, max-age=${image.maxAgeSeconds}`)
        .type(image.content_type)
        .send(image.data)
    },
  )

  const learnerRoutes: FastifyPluginAsyncZod = async (learner) => {
    // Before the body is read: a stranger's 15 MB is refused unread.
    learner.addHook('onRequest', learner.authenticate)

    learner.post(
      '/attempts/:attemptId/written/:questionId/pages/',
      {
        bodyLimit: photoBodyLimit(pageForm),
        schema: {
          ...docs,
          summary: 'Add a photographed page to a written answer (multipart/form-data: image)',
          consumes: ['multipart/form-data'],
          params: WrittenAnswerParamsSchema,
          response: { 200: WrittenPageSchema, 201: WrittenPageSchema },
        },
      },
      (request, reply) =>
        withPhotoForm(pageForm, request, reply, async (photo) => {
          const { attemptId, questionId } = request.params
          const added = await answering.addPage(request.user, attemptId, questionId, photo)
          return reply.code(added.created ? 201 : 200).send(added.page)
        }),
    )

    const jsonRoutes: FastifyPluginAsyncZod = async (json) => {
      acceptJsonOnly(json)
      json.put(
        '/attempts/:attemptId/written/:questionId/text/',
        {
          schema: {
            ...docs,
            params: WrittenAnswerParamsSchema,
            body: WrittenTextInputSchema,
            response: { 200: WordCountSchema },
          },
        },
        (request) =>
          answering.putText(request.user, request.params.attemptId, request.params.questionId, request.body.text),
      )
      json.put(
        '/attempts/:attemptId/written/:questionId/pages/',
        {
          schema: {
            ...docs,
            params: WrittenAnswerParamsSchema,
            body: PageOrderInputSchema,
            response: { 200: WrittenPageListSchema },
          },
        },
        (request) =>
          answering.orderPages(request.user, request.params.attemptId, request.params.questionId, request.body.order),
      )
      json.delete(
        '/attempts/:attemptId/written/:questionId/pages/:pageId/',
        { schema: { ...docs, params: WrittenPageParamsSchema } },
        async (request, reply) => {
          const { attemptId, questionId, pageId } = request.params
          await answering.removePage(request.user, attemptId, questionId, pageId)
          return reply.code(204).send()
        },
      )
      json.get(
        '/results/:attemptId/written/:questionId/',
        {
          schema: {
            tags: ['results'],
            security: docs.security,
            params: WrittenAnswerParamsSchema,
            response: { 200: WrittenResultSchema },
          },
        },
        (request) => answering.writtenResult(request.user, request.params.attemptId, request.params.questionId),
      )
    }
    await learner.register(jsonRoutes)
  }
  await app.register(learnerRoutes)
}
