import { SvgInputSchema, createAdminSchemas } from '@quiz/contracts'
import { z } from 'zod'
import { sanitizeSvg } from '../svg/sanitize-svg'

/**
 * The contract's SVG field, sanitised as it is validated: what reaches a handler is already safe, and an
 * SVG that is refused is reported at its own path (`questions.3.options.1.image.svg`) together with every
 * other bad field of the request.
 */
export const SanitizedSvgSchema = SvgInputSchema.transform((svg, context) => {
  const result = sanitizeSvg(svg)
  if (result.ok) return result.svg
  context.addIssue({ code: 'custom', message: result.reason, input: svg })
  return z.NEVER
})

export const { QuestionInputSchema, CreateQuizFromJsonSchema } = createAdminSchemas(SanitizedSvgSchema)
export type QuestionContentInput = z.output<typeof QuestionInputSchema>
export type CreateQuizFromJsonInput = z.output<typeof CreateQuizFromJsonSchema>
