import type { FastifyRequest } from 'fastify'
import { nulMessage, pathOfNul } from '../lib/nul'
import { AppError, PayloadTooLarge, ValidationFailed } from './errors'

// The parts are read into memory, never written to disk, within the limits the route states.

export interface MultipartForm {
  fields: Record<string, string>
  file: { bytes: Buffer; name: string } | null
}

export interface MultipartRules {
  fileField: string
  limits: { fileSize: number; files: number; fields: number; fieldSize: number }
  notMultipart: string
  fileTooLarge: string
  tooManyParts: string
}

const TOO_MANY_PARTS = new Set(['FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_PARTS_LIMIT'])

export async function readMultipartForm(request: FastifyRequest, rules: MultipartRules): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type', rules.notMultipart)
  const fields: Record<string, string> = {}
  let file: MultipartForm['file'] = null
  try {
    for await (const part of request.parts({ limits: rules.limits })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer()
        if (part.fieldname === rules.fileField && bytes.length > 0) file = { bytes, name: part.filename ?? '' }
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value
    }
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLarge(rules.fileTooLarge)
    if (code !== undefined && TOO_MANY_PARTS.has(code)) throw new PayloadTooLarge(rules.tooManyParts)
    // Anything else here is the body itself being malformed (busboy's "Unexpected end of form" and the like).
    throw new AppError(400, 'validation_error', 'Malformed multipart body.')
  }
  // As the validator does for JSON (http/validator.ts): PostgreSQL cannot store a NUL, so none reaches a service.
  const nul = pathOfNul(fields)?.join('.') ?? (file?.name.includes('\u0000') ? rules.fileField : undefined)
  if (nul !== undefined) throw new ValidationFailed({ [nul]: [nulMessage] }, nulMessage)
  return { fields, file }
}
