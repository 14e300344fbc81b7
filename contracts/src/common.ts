import { z } from 'zod'
import { messages } from './messages'
import { DIFFICULTIES } from './rules/difficulty'
import { PHONE_PATTERN } from './rules/identity'

/** Positive integer id, accepted from path params as a string of digits. */
export const IdSchema = z.coerce.number().int().positive().max(2_147_483_647)
export const IdParamsSchema = z.object({ id: IdSchema })

/** ISO 8601 timestamp with a `Z` or an explicit offset; output is always UTC with `Z`. */
export const IsoDateTimeSchema = z.iso.datetime({ offset: true })

export const LanguageSchema = z.enum(['en', 'ne'])
export type Language = z.infer<typeof LanguageSchema>

export const DifficultySchema = z.enum(DIFFICULTIES)
export type Difficulty = z.infer<typeof DifficultySchema>

/** Bilingual text as output: `ne` is always a string, '' when there is none. */
export const BilingualSchema = z.object({ en: z.string(), ne: z.string() })
export type Bilingual = z.infer<typeof BilingualSchema>

/**
 * A question's, option's, hint's or caption's text as output (API.md "Maths and chemistry"): `html` is the text with
 * its formulas rendered on the server to MathML (for learners and admins alike), null when the text has no maths.
 * Learners' `en`/`ne` then hold a plain reading of each formula; admins' hold the TeX as written (decision 027).
 */
export const RichTextSchema = BilingualSchema.extend({ html: BilingualSchema.nullable() })
export type RichText = z.infer<typeof RichTextSchema>

/** Bilingual text as input: `ne` may be omitted, null or empty. */
export const bilingualInput = (maxLength: number, { requireEn = true } = {}) =>
  z.object({
    en: requireEn
      ? z.string().trim().min(1, 'This field may not be blank.').max(maxLength)
      : z.string().trim().max(maxLength),
    ne: z
      .string()
      .trim()
      .max(maxLength)
      .nullish()
      .transform((value) => value ?? ''),
  })

export const PhoneNumberSchema = z.string().trim().regex(PHONE_PATTERN, messages.invalidPhone)

export const TokenPairSchema = z.object({ access: z.string(), refresh: z.string() })
export type TokenPair = z.infer<typeof TokenPairSchema>

export const DetailSchema = z.object({ detail: z.string() })

/**
 * A question's type: `choice` (one right option), `multiple` (several right options), `numeric` (a typed number) or
 * `written` (marked by rubric).
 */
export const QuestionTypeSchema = z.enum(['choice', 'multiple', 'numeric', 'written'])
export type QuestionType = z.infer<typeof QuestionTypeSchema>
