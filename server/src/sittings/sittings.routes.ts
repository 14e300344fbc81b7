import {
  AttemptIdParamsSchema,
  BookletLayoutQuerySchema,
  BookletLayoutSchema,
  BookletPageListSchema,
  BookletPageSchema,
  BookletParamsSchema,
  BookletQuerySchema,
  PageListQuerySchema,
  PageOrSheetSchema,
  PageUpdateSchema,
  IdParamsSchema,
  RosterInputSchema,
  RosterSchema,
  ScanFieldsSchema,
  ScanListQuerySchema,
  ScanListSchema,
  ScanPhotoParamsSchema,
  ScanSchema,
  ScanUpdateSchema,
  SetQuerySchema,
  SheetLayoutSchema,
  SheetParamsSchema,
  SheetQuerySchema,
  SittingCreateSchema,
  SittingListSchema,
  SittingPaperSchema,
  SittingSchema,
  SittingUpdateSchema,
  sittingLimits,
  sittingMessages,
} from '@quiz/contracts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { parseFields } from '../http/field-errors'
import { acceptJsonOnly } from '../http/json-only'
import { photoBodyLimit, withPhotoForm, type PhotoForm } from '../http/photo-form'
import type { BookletPagesService } from './booklet-pages.service'
import type { ScansService } from './scans.service'
import type { SittingsService } from './sittings.service'

const docs = { tags: ['admin'], security: [{ bearer: [] }] }
const photoForm: PhotoForm = { photoBytes: sittingLimits.photoBytes, messages: sittingMessages }
const PHOTO_BODY_LIMIT = photoBodyLimit(photoForm)
/** An admin route's schema, its `params` a sitting's, page's or scan's id unless it says. */
const admin = <Parts extends object>(parts: Parts) => ({ schema: { ...docs, params: IdParamsSchema, ...parts } })

const replaceOf = (fields: Record<string, string>) => parseFields(ScanFieldsSchema, fields).replace === 'true'

const photoRoutes: FastifyPluginAsyncZod<{ scans: ScansService; pages: BookletPagesService }> = async (
  upload,
  { scans, pages },
) => {
  upload.post(
    '/sittings/:id/scans/',
    {
      bodyLimit: PHOTO_BODY_LIMIT,
      schema: {
        ...docs,
        summary: 'Read a photographed answer sheet (multipart/form-data: image, replace)',
        consumes: ['multipart/form-data'],
        params: IdParamsSchema,
        response: { 201: ScanSchema },
      },
    },
    (request, reply) =>
      withPhotoForm(photoForm, request, reply, async (photo, fields) => {
        const scan = await scans.scanSheet(request.params.id, photo, replaceOf(fields), actorOf(request))
        return reply.code(201).send(scan)
      }),
  )
  // The "Scan sheets" screen's one place: a booklet page, or an answer sheet told apart by its code (075).
  upload.post(
    '/sittings/:id/pages/',
    {
      bodyLimit: PHOTO_BODY_LIMIT,
      schema: {
        ...docs,
        summary: 'Read a photographed written-answer booklet page, or an answer sheet (multipart: image, replace)',
        consumes: ['multipart/form-data'],
        params: IdParamsSchema,
        response: { 200: BookletPageSchema, 201: PageOrSheetSchema },
      },
    },
    (request, reply) =>
      withPhotoForm(photoForm, request, reply, async (photo, fields) => {
        const replace = replaceOf(fields)
        const actor = actorOf(request)
        const read = await pages.scanPage(request.params.id, photo, replace, actor)
        if (read.sheet) {
          const scan = await scans.recordSheet(request.params.id, photo, read.reading, replace, actor)
          return reply.code(201).send({ ...scan, kind: 'sheet' as const })
        }
        return reply.code(read.created ? 201 : 200).send(read.page)
      }),
  )
}

/** API.md "Paper sittings", under /api/admin: sittings, booklets, rosters, sheets, scans and their review. */
export const sittingRoutes: FastifyPluginAsyncZod<{
  sittings: SittingsService
  scans: ScansService
  pages: BookletPagesService
}> = async (app, { sittings, scans, pages }) => {
  // Before the body is read: a learner's upload is refused without reading 15 MB.
  app.addHook('onRequest', app.requireAdmin)

  await app.register(photoRoutes, { scans, pages })

  const jsonRoutes: FastifyPluginAsyncZod = async (json) => {
    acceptJsonOnly(json)

    json.post(
      '/quizzes/:id/sittings/',
      admin({ body: SittingCreateSchema, response: { 201: SittingSchema } }),
      async (request, reply) =>
        reply.code(201).send(await sittings.createSitting(request.params.id, request.body, actorOf(request))),
    )
    json.get('/quizzes/:id/sittings/', admin({ response: { 200: SittingListSchema } }), (request) =>
      sittings.listQuizSittings(request.params.id),
    )
    json.get('/sittings/:id/', admin({ response: { 200: SittingSchema } }), (request) =>
      sittings.getSitting(request.params.id),
    )
    json.patch('/sittings/:id/', admin({ body: SittingUpdateSchema, response: { 200: SittingSchema } }), (request) =>
      sittings.updateSittingDetails(request.params.id, request.body, actorOf(request)),
    )
    json.delete('/sittings/:id/', admin({}), async (request, reply) => {
      await sittings.removeSitting(request.params.id, actorOf(request))
      return reply.code(204).send()
    })
    json.get(
      '/sittings/:id/paper/',
      admin({ querystring: SetQuerySchema, response: { 200: SittingPaperSchema } }),
      (request) => sittings.booklet(request.params.id, request.query.set),
    )
    json.get('/sittings/:id/roster/', admin({ response: { 200: RosterSchema } }), (request) =>
      sittings.getRoster(request.params.id),
    )
    json.put('/sittings/:id/roster/', admin({ body: RosterInputSchema, response: { 200: RosterSchema } }), (request) =>
      sittings.putRoster(request.params.id, request.body, actorOf(request)),
    )
    json.get(
      '/sittings/:id/sheets/:sheet',
      { schema: { ...docs, params: SheetParamsSchema, querystring: SheetQuerySchema } },
      async (request, reply) =>
        reply
          .type('image/svg+xml; charset=utf-8')
          .send(await sittings.sheetSvg(request.params.id, request.params.sheet, request.query.serial)),
    )
    json.get(
      '/sittings/:id/sheet-layout/',
      admin({ querystring: SetQuerySchema, response: { 200: SheetLayoutSchema } }),
      (request) => sittings.sheetLayout(request.params.id, request.query.set),
    )
    json.get(
      '/sittings/:id/booklets/:booklet',
      { schema: { ...docs, params: BookletParamsSchema, querystring: BookletQuerySchema } },
      async (request, reply) =>
        reply
          .type('image/svg+xml; charset=utf-8')
          .send(
            await sittings.bookletSvg(
              request.params.id,
              request.params.booklet,
              request.query.page,
              request.query.serial,
            ),
          ),
    )
    json.get(
      '/sittings/:id/booklet-layout/',
      admin({ querystring: BookletLayoutQuerySchema, response: { 200: BookletLayoutSchema } }),
      (request) => sittings.bookletLayout(request.params.id, request.query.set),
    )
    json.get(
      '/sittings/:id/pages/',
      admin({ querystring: PageListQuerySchema, response: { 200: BookletPageListSchema } }),
      (request) => pages.listPages(request.params.id, request.query.status),
    )
    json.get('/pages/:id/', admin({ response: { 200: BookletPageSchema } }), (request) =>
      pages.getPage(request.params.id),
    )
    json.get('/pages/:id/image', admin({}), async (request, reply) => {
      const image = await pages.pageImage(request.params.id)
      return reply.type(image.type).send(image.data)
    })
    json.patch('/pages/:id/', admin({ body: PageUpdateSchema, response: { 200: BookletPageSchema } }), (request) =>
      pages.reviewPage(request.params.id, request.body, actorOf(request)),
    )
    json.get(
      '/sittings/:id/scans/',
      admin({ querystring: ScanListQuerySchema, response: { 200: ScanListSchema } }),
      (request) => scans.listSittingScans(request.params.id, request.query.status),
    )
    json.get('/scans/:id/', admin({ response: { 200: ScanSchema } }), (request) => scans.getScan(request.params.id))
    json.get('/scans/:id/image', admin({}), async (request, reply) => {
      const photo = await scans.scanImage(request.params.id)
      return reply.type(photo.type).send(photo.data)
    })
    json.get('/scans/:id/reader-view', admin({}), async (request, reply) => {
      const view = await scans.readerView(request.params.id)
      return reply.type(view.type).send(view.data)
    })
    json.get(
      '/scans/:id/photos/:photo_id',
      { schema: { ...docs, params: ScanPhotoParamsSchema } },
      async (request, reply) => {
        const photo = await scans.earlierScanImage(request.params.id, request.params.photo_id)
        return reply.type(photo.type).send(photo.data)
      },
    )
    json.patch('/scans/:id/', admin({ body: ScanUpdateSchema, response: { 200: ScanSchema } }), (request) =>
      scans.reviewScan(request.params.id, request.body, actorOf(request)),
    )
    json.delete('/scans/:id/', admin({}), async (request, reply) => {
      await scans.removeScan(request.params.id, actorOf(request))
      return reply.code(204).send()
    })
  }
  await app.register(jsonRoutes)
}

/** Under /api/results: the photo of the learner's own answer sheet behind a paper attempt (API.md "Paper sittings"). */
export const learnerSheetRoutes: FastifyPluginAsyncZod<{ scans: ScansService }> = async (app, { scans }) => {
  app.addHook('onRequest', app.authenticate)
  app.get(
    '/:attemptId/sheet',
    { schema: { tags: ['results'], security: [{ bearer: [] }], params: AttemptIdParamsSchema } },
    async (request, reply) => {
      const photo = await scans.learnerSheet(request.user.id, request.params.attemptId)
      return reply.type(photo.type).send(photo.data)
    },
  )
}
