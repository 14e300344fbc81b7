import type { FastifyRequest } from 'fastify'
import { AppError, PayloadTooLarge } from './errors'

// The one reader of multipart/form-data bodies (the profile, the imports): the parts are read into memory, never
// written to disk, within the limits the route states; @fastify/multipart is registered in app.ts.

export interface MultipartForm {
  /** The text fields by name (a repeated name keeps its last value). */
  fields: Record<string, string>
  /** The file sent in the route's file field; null when none was chosen. */
  file: { bytes: Buffer; name: string } | null
}

export interface MultipartRules {
  /** The name of the one file part the route reads; files under other names are read and dropped. */
  fileField: string
  limits: { fileSize: number; files: number; fields: number; fieldSize: number }
  /** The 415's detail, for a body that is not multipart/form-data. */
  notMultipart: string
  /** The 413's details: the file over `fileSize`, and more files or fields than the limits allow. */
  fileTooLarge: string
  tooManyParts: string
}

const TOO_MANY_PARTS = new Set(['FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_PARTS_LIMIT'])

/** Reads the form, or refuses it with API.md's 415, 413 or 400 (a malformed body). */
export async function readMultipartForm(request: FastifyRequest, rules: MultipartRules): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type', rules.notMultipart)
  const fields: Record<string, string> = {}
  let file: MultipartForm['file'] = null
  try {
    for await (const part of request.parts({ limits: rules.limits })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer()
        // A form whose file input was left empty still sends an empty part: that is no file.
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
  return { fields, file }
}
