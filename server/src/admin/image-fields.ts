import { adminLimits, adminMessages, PICTURE_URL_PATTERN, pictureMessages, SvgInputSchema } from '@quiz/contracts'
import type { FastifyRequest } from 'fastify'
import type { ZodType } from 'zod'
import { AppError, ValidationFailed, type FieldErrors } from '../http/errors'
import { zodFieldErrors } from '../http/field-errors'
import { decodeDataUrl, type EncodedPicture, type PictureRefusal } from '../pictures/picture-encoding'
import { pictureOf, type PicturesService } from '../pictures/pictures.service'
import { sanitizeSvg } from '../svg/sanitize-svg'
import { checkMathsInSlices } from '../maths/check-maths'
import { questionMathsErrors, quizMathsErrors } from './maths-fields'
import { quizBodyQuestions } from './quiz-body-questions'

// Before validation, so a refused image or formula is reported with every other problem (docs/decisions/027).

interface ImageField {
  path: string
  image: Record<string, unknown>
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function imageField(owner: unknown, prefix: string): ImageField[] {
  if (!isRecord(owner) || !isRecord(owner.image)) return []
  return [{ path: `${prefix}image`, image: owner.image }]
}

function questionFields(question: unknown, prefix = ''): ImageField[] {
  const fields = imageField(question, prefix)
  if (isRecord(question) && Array.isArray(question.options) && question.options.length <= adminLimits.maxOptions) {
    question.options.forEach((option, index) => fields.push(...imageField(option, `${prefix}options.${index}.`)))
  }
  return fields
}

function quizFields(quiz: unknown): ImageField[] {
  return quizBodyQuestions(quiz).flatMap(([question, prefix]) => questionFields(question, prefix))
}

// Yielding also ends the job, which lets jsdom release the documents of the SVGs done so far.
const SLICE_MS = 20
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

async function sanitizeFields(fields: ImageField[]): Promise<FieldErrors> {
  const errors: FieldErrors = {}
  let sliceStart = performance.now()
  for (const field of fields) {
    const svg = field.image.svg
    if (typeof svg !== 'string' || !SvgInputSchema.safeParse(svg).success) continue
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn()
      sliceStart = performance.now()
    }
    const result = sanitizeSvg(svg.trim())
    if (!result.ok) errors[`${field.path}.svg`] = [result.reason]
    // Serialising can lengthen markup a little (`>` in text becomes `&gt;`); what is stored obeys the limit.
    else if (Buffer.byteLength(result.svg) > adminLimits.svgBytes)
      errors[`${field.path}.svg`] = [adminMessages.svgTooLarge]
    else field.image.svg = result.svg
  }
  return errors
}

const refusalMessages: Record<PictureRefusal, string> = {
  not_a_picture: pictureMessages.notAPicture,
  too_large: pictureMessages.tooLarge,
  too_many_pixels: pictureMessages.tooManyPixels,
  too_costly: pictureMessages.tooCostly,
}

interface PictureReading {
  errors: FieldErrors
  tooLarge: boolean
  encoded: EncodedPicture[]
}

async function readPictures(fields: ImageField[], pictures: PicturesService): Promise<PictureReading> {
  const reading: PictureReading = { errors: {}, tooLarge: false, encoded: [] }
  const refuse = (path: string, refusal: PictureRefusal) => {
    reading.errors[path] = [refusalMessages[refusal]]
    if (refusal === 'too_large' || refusal === 'too_many_pixels') reading.tooLarge = true
  }
  const byUrl: { field: ImageField; hash: string }[] = []
  const fresh: { field: ImageField; encoded: EncodedPicture }[] = []
  // One at a time: each holds a decoded canvas of up to 50 megapixels.
  for (const field of fields) {
    const picture = field.image.picture
    const path = `${field.path}.picture`
    if (typeof picture === 'string') {
      const bytes = decodeDataUrl(picture)
      const encoded = typeof bytes === 'string' ? bytes : await pictures.encode(bytes)
      if (typeof encoded === 'string') refuse(path, encoded)
      else fresh.push({ field, encoded })
    } else if (isRecord(picture) && typeof picture.url === 'string') {
      const hash = PICTURE_URL_PATTERN.exec(picture.url)?.[1]
      if (hash === undefined) reading.errors[path] = [pictureMessages.unknown]
      else byUrl.push({ field, hash })
    }
  }
  const stored = await pictures.alreadyStored(fresh.map(({ encoded }) => encoded))
  for (const { field, encoded } of fresh) {
    const same = stored.get(encoded.hash)
    field.image.picture = same ?? pictureOf(encoded)
    if (!same) reading.encoded.push(encoded)
  }
  const sizes = await pictures.sizesOf(byUrl.map(({ hash }) => hash))
  for (const { field, hash } of byUrl) {
    const size = sizes.get(hash) ?? reading.encoded.find((encoded) => encoded.hash === hash)
    if (size) field.image.picture = pictureOf({ hash, width: size.width, height: size.height })
    else reading.errors[`${field.path}.picture`] = [pictureMessages.unknown]
  }
  return reading
}

function imagesBefore(
  schema: ZodType,
  pictures: PicturesService,
  fieldsOf: (body: unknown) => ImageField[],
  mathsErrorsOf: (body: unknown) => Promise<FieldErrors>,
) {
  return async (request: FastifyRequest) => {
    const fields = fieldsOf(request.body)
    const svgErrors = await sanitizeFields(fields)
    const pictureReading = await readPictures(fields, pictures)
    const mathsErrors = await mathsErrorsOf(request.body)
    const own = [svgErrors, pictureReading.errors, mathsErrors]
    if (own.every((found) => Object.keys(found).length === 0)) {
      if (pictureReading.encoded.length > 0 && schema.safeParse(request.body).success) {
        await pictures.saveEncoded(pictureReading.encoded)
      }
      return
    }
    const errors = zodFieldErrors(schema.safeParse(request.body).error?.issues ?? [])
    // A link sent as a picture is refused here and by the schema's pattern alike: one message, not two.
    for (const found of own)
      for (const [path, messages] of Object.entries(found)) {
        const atPath = (errors[path] ??= [])
        atPath.push(...messages.filter((message) => !atPath.includes(message)))
      }
    if (pictureReading.tooLarge) throw new AppError(413, 'payload_too_large', 'A picture is too large.', errors)
    throw new ValidationFailed(errors)
  }
}

export const questionImagesHook = (schema: ZodType, pictures: PicturesService) =>
  imagesBefore(schema, pictures, (body) => questionFields(body), questionMathsErrors)

export const quizImagesHook = (schema: ZodType, pictures: PicturesService) =>
  imagesBefore(schema, pictures, quizFields, quizMathsErrors)

// A passage: its picture as a question's, its text (longer than a question's) checked for maths at any length.
const passageTexts = (body: unknown): [string, unknown][] => {
  if (!isRecord(body)) return []
  const texts: [string, unknown][] = []
  for (const [key, owner] of [
    ['text', body],
    ['image.caption', isRecord(body.image) ? body.image : undefined],
  ] as const) {
    const text = key === 'text' ? owner?.text : owner?.caption
    if (isRecord(text)) for (const language of ['en', 'ne']) texts.push([`${key}.${language}`, text[language]])
  }
  return texts
}

export const passageImagesHook = (schema: ZodType, pictures: PicturesService) =>
  imagesBefore(
    schema,
    pictures,
    (body) => imageField(body, ''),
    (body) => checkMathsInSlices(passageTexts(body)),
  )
