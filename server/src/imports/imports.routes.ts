import {
  BankListQuerySchema,
  IdParamsSchema,
  ImportCommitBodySchema,
  ImportCommitResultSchema,
  ImportDryRunSchema,
  ImportFieldsSchema,
  importLimits,
  importMessages,
} from '@quiz/contracts'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { actorOf } from '../audit/audit-log'
import { ValidationFailed } from '../http/errors'
import { parseFields } from '../http/field-errors'
import { readMultipartForm } from '../http/multipart'
import { acceptJsonOnly } from '../http/json-only'
import type { ImportsService } from './imports.service'
import type { ImportInput } from './readers'
import { templateQuestions, writeCsv, writeXlsx } from './sheet'

const docs = { tags: ['admin'], security: [{ bearer: [] }] }
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const attachment = (name: string) => `attachment; filename="${name}"`

// Nothing of the upload is written anywhere but memory.
async function readUpload(
  request: FastifyRequest,
): Promise<{ input: Omit<ImportInput, 'format'>; fields: Record<string, string> }> {
  const { fields, file } = await readMultipartForm(request, {
    fileField: 'file',
    limits: { fileSize: importLimits.fileBytes, files: 1, fields: 20, fieldSize: importLimits.textLength },
    notMultipart: 'Send the file or the text as multipart/form-data.',
    fileTooLarge: importMessages.fileTooLarge,
    tooManyParts: 'The form has too many parts: send one file or one text.',
  })
  const text = fields.text && fields.text.trim() !== '' ? fields.text : null
  if (!file && !text) throw new ValidationFailed({ file: [importMessages.noInput] })
  if (file && text) throw new ValidationFailed({ text: [importMessages.bothInputs] })
  return { input: { file, text }, fields }
}

export const importsRoutes: FastifyPluginAsyncZod<{ imports: ImportsService }> = async (app, { imports }) => {
  // Before the body is read: a learner's upload is refused without reading 20 MB.
  app.addHook('onRequest', app.requireAdmin)

  await app.register(async (upload) => {
    upload.post(
      '/imports/',
      {
        bodyLimit: importLimits.fileBytes + 1024 * 1024,
        schema: {
          ...docs,
          summary: 'Dry run of an import (multipart/form-data: file or text, format, legacy_font, defaults)',
          consumes: ['multipart/form-data'],
          response: { 201: ImportDryRunSchema },
        },
      },
      async (request, reply) => {
        const { input, fields } = await readUpload(request)
        const parsed = parseFields(ImportFieldsSchema, fields)
        const dryRun = await imports.dryRun({ ...input, format: parsed.format }, parsed, actorOf(request))
        return reply.code(201).type('application/json; charset=utf-8').send(dryRun)
      },
    )
  })

  const jsonRoutes: FastifyPluginAsyncZod = async (json) => {
    acceptJsonOnly(json)
    json.post(
      '/imports/:id/commit/',
      {
        schema: {
          ...docs,
          params: IdParamsSchema,
          body: ImportCommitBodySchema,
          response: { 200: ImportCommitResultSchema },
        },
      },
      (request) => imports.commit(request.params.id, request.body, actorOf(request)),
    )
    json.get('/imports/template.xlsx', { schema: docs }, async (_request, reply) =>
      reply
        .type(XLSX)
        .header('content-disposition', attachment('question-import-template.xlsx'))
        .send(await writeXlsx(templateQuestions)),
    )
    json.get('/imports/template.csv', { schema: docs }, async (_request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment('question-import-template.csv'))
        .send(writeCsv(templateQuestions)),
    )
    json.get('/bank/export.xlsx', { schema: { ...docs, querystring: BankListQuerySchema } }, async (request, reply) =>
      reply
        .type(XLSX)
        .header('content-disposition', attachment('question-bank.xlsx'))
        .send(await imports.exportXlsx(request.query)),
    )
  }
  await app.register(jsonRoutes)
}
