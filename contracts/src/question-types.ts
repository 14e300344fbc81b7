// Request and response parts of API.md "Question types": multiple questions (several right options) and numeric
// questions (a typed number with a tolerance or a range). Choice questions are admin.ts's, written ones written.ts's.
import { z } from 'zod'
import { adminInput, adminLimits, adminMessages, ImageInputSchema, OptionInputSchema } from './admin'
import { isKeyNumber, MAX_DECIMALS } from './rules/numbers'

const { required, bilingual, optionalText } = adminInput

export const questionTypeLimits = {
  multipleOptions: { min: 2, max: 8 },
  decimals: { min: 0, max: MAX_DECIMALS },
} as const

export const questionTypeMessages = {
  multipleOptionCount: `A multiple question needs ${questionTypeLimits.multipleOptions.min} to ${questionTypeLimits.multipleOptions.max} options.`,
  atLeastOneCorrect: 'At least one option must be marked correct.',
  numericNoOptions: 'A numeric question has no options.',
  keyNumber: 'A number with at most 6 decimals.',
  tolerance: 'The tolerance must be 0 or more.',
  minAboveMax: "The range's min must not be above its max.",
  answer: 'Send {value, tolerance} or {min, max}.',
  decimals: `Decimals must be a whole number from ${questionTypeLimits.decimals.min} to ${questionTypeLimits.decimals.max}, or null.`,
} as const

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const keyNumber = z.number(required).refine(isKeyNumber, questionTypeMessages.keyNumber)

const ValueKeyInputSchema = z.object({
  value: keyNumber,
  // An exact value needs no tolerance: absent is 0.
  tolerance: keyNumber.refine((value) => value >= 0, questionTypeMessages.tolerance).default(0),
})
const RangeKeyInputSchema = z
  .object({ min: keyNumber, max: keyNumber })
  .refine((range) => range.min <= range.max, { message: questionTypeMessages.minAboveMax, path: ['max'] })

/**
 * A numeric question's accepted answer, chosen by its keys (`min` or `max`: a range; else a value), so a mistake is
 * reported at its own path (`answer.tolerance`, `answer.max`).
 */
export const NumericKeyInputSchema = z.unknown().transform((value, context) => {
  if (!isRecord(value)) {
    context.addIssue({
      code: 'custom',
      message: value === undefined ? adminMessages.required : questionTypeMessages.answer,
    })
    return z.NEVER
  }
  const schema = 'min' in value || 'max' in value ? RangeKeyInputSchema : ValueKeyInputSchema
  const result = schema.safeParse(value)
  if (result.success) return result.data as { value: number; tolerance: number } | { min: number; max: number }
  for (const issue of result.error.issues)
    context.addIssue({ code: 'custom', message: issue.message, path: issue.path as (string | number)[] })
  return z.NEVER
})

export const DecimalsSchema = z
  .number()
  .int(questionTypeMessages.decimals)
  .min(questionTypeLimits.decimals.min, questionTypeMessages.decimals)
  .max(questionTypeLimits.decimals.max, questionTypeMessages.decimals)
  .nullish()
  .transform((value) => value ?? null)

const commonFields = {
  text: bilingual(adminLimits.questionTextLength),
  hint: adminInput.hint,
  topic: optionalText(adminLimits.topicLength),
  image: ImageInputSchema,
}

/** A multiple question: 2..8 options, at least one right (API.md "Question types"). */
export const MultipleQuestionInputSchema = z.object({
  type: z.literal('multiple'),
  ...commonFields,
  options: z
    .array(OptionInputSchema, required)
    .min(questionTypeLimits.multipleOptions.min, questionTypeMessages.multipleOptionCount)
    .max(questionTypeLimits.multipleOptions.max, questionTypeMessages.multipleOptionCount)
    .refine((options) => options.some((option) => (option as { is_correct?: unknown }).is_correct === true), {
      message: questionTypeMessages.atLeastOneCorrect,
      when: (payload) => Array.isArray(payload.value),
    }),
})

/** A numeric question: no options (absent, null or empty), an accepted answer and the decimals it may be typed with. */
export const NumericQuestionInputSchema = z.object({
  type: z.literal('numeric'),
  ...commonFields,
  options: z
    .array(z.unknown(), questionTypeMessages.numericNoOptions)
    .max(0, questionTypeMessages.numericNoOptions)
    .nullish()
    .transform((): never[] => []),
  answer: NumericKeyInputSchema,
  decimals: DecimalsSchema,
})

type Schemas = { choice: z.ZodType; multiple: z.ZodType; numeric: z.ZodType; written: z.ZodType }

/**
 * A question body of any type, chosen by its `type` (absent or unknown: choice, whose schema refuses an unknown
 * type), so a mistake is reported at its own path (`answer.max`, `options`) rather than as "no branch matched".
 */
export function anyType<S extends Schemas>(schemas: S) {
  return z.unknown().transform((value, context): z.output<S[keyof S]> => {
    const type = isRecord(value) ? value.type : undefined
    const schema = type === 'multiple' || type === 'numeric' || type === 'written' ? schemas[type] : schemas.choice
    const result = schema.safeParse(value)
    if (result.success) return result.data as z.output<S[keyof S]>
    for (const issue of result.error.issues)
      context.addIssue({ code: 'custom', message: issue.message, path: issue.path as (string | number)[] })
    return z.NEVER
  })
}
