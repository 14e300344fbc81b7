import { adminLimits, adminMessages, SvgInputSchema } from '@quiz/contracts'
import type { FastifyRequest } from 'fastify'
import type { ZodType } from 'zod'
import { ValidationFailed, type FieldErrors } from '../http/errors'
import { zodFieldErrors } from '../http/field-errors'
import { sanitizeSvg } from '../svg/sanitize-svg'
import { questionMathsErrors, quizMathsErrors } from './maths-fields'
import { quizBodyQuestions } from './quiz-body-questions'

// Every SVG is sanitised as it arrives, before the body is validated, for two reasons. Validation is
// synchronous, and sanitising is not cheap, a big diagram least of all (docs/performance.md): here
// the work is cut into slices with the event loop free in between, so learners' requests keep flowing
// while an admin pastes a 10 MB quiz. And an SVG that is refused is reported at its own path together
// with every other problem of the body, as API.md asks. The texts' maths is checked in the same hook, for the
// same two reasons (admin/maths-fields.ts, docs/decisions/027).

interface SvgField {
  path: string
  image: Record<string, unknown>
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function imageField(owner: unknown, prefix: string): SvgField[] {
  if (!isRecord(owner) || !isRecord(owner.image) || typeof owner.image.svg !== 'string') return []
  return [{ path: `${prefix}image.svg`, image: owner.image }]
}

/** The question's image and its options' images. Oversized lists are left to validation, unsanitised. */
function questionFields(question: unknown, prefix = ''): SvgField[] {
  const fields = imageField(question, prefix)
  if (isRecord(question) && Array.isArray(question.options) && question.options.length <= adminLimits.maxOptions) {
    question.options.forEach((option, index) => fields.push(...imageField(option, `${prefix}options.${index}.`)))
  }
  return fields
}

function quizFields(quiz: unknown): SvgField[] {
  return quizBodyQuestions(quiz).flatMap(([question, prefix]) => questionFields(question, prefix))
}

// Longest stretch of sanitising between two turns of the event loop. Yielding also ends the job, which lets
// jsdom release the documents of the SVGs done so far.
const SLICE_MS = 20
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Replaces each SVG with its sanitised form, in place; returns the refusals by path. */
async function sanitizeFields(fields: SvgField[]): Promise<FieldErrors> {
  const errors: FieldErrors = {}
  let sliceStart = performance.now()
  for (const field of fields) {
    const svg = field.image.svg as string
    // Blank or too large: validation says so; nothing to sanitise.
    if (!SvgInputSchema.safeParse(svg).success) continue
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn()
      sliceStart = performance.now()
    }
    const result = sanitizeSvg(svg.trim())
    if (!result.ok) errors[field.path] = [result.reason]
    // Serialising can lengthen markup a little (`>` in text becomes `&gt;`); what is stored obeys the limit.
    else if (Buffer.byteLength(result.svg) > adminLimits.svgBytes) errors[field.path] = [adminMessages.svgTooLarge]
    else field.image.svg = result.svg
  }
  return errors
}

/**
 * SVGs are sanitised and texts' maths checked (docs/decisions/027) before validation, so that the refusals of both
 * come with every other problem of the body, each at its own path.
 */
function sanitizeBefore(
  schema: ZodType,
  fieldsOf: (body: unknown) => SvgField[],
  mathsErrorsOf: (body: unknown) => Promise<FieldErrors>,
) {
  return async (request: FastifyRequest) => {
    const svgErrors = await sanitizeFields(fieldsOf(request.body))
    const mathsErrors = await mathsErrorsOf(request.body)
    if (Object.keys(svgErrors).length === 0 && Object.keys(mathsErrors).length === 0) return
    const errors = zodFieldErrors(schema.safeParse(request.body).error?.issues ?? [])
    for (const found of [svgErrors, mathsErrors])
      for (const [path, messages] of Object.entries(found)) (errors[path] ??= []).push(...messages)
    throw new ValidationFailed(errors)
  }
}

/** preValidation hook of the question routes: the body is one question. */
export const sanitizeQuestionSvgs = (schema: ZodType) =>
  sanitizeBefore(schema, (body) => questionFields(body), questionMathsErrors)

/** preValidation hook of create-from-JSON: the body is a quiz with questions. */
export const sanitizeQuizSvgs = (schema: ZodType) => sanitizeBefore(schema, quizFields, quizMathsErrors)
