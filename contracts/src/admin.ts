// Request and response schemas of the admin feature (API.md "Administration" and "Limits on input").
import { z } from 'zod'
import { ChallengeDaysSchema, QuestionKeySchema } from './challenges'
import { BilingualSchema, DifficultySchema, IdSchema, QuestionTypeSchema, RichTextSchema } from './common'
import { liveLimits, liveMessages, LiveScheduleSchema } from './live'
import { PictureInputSchema, pictureMessages } from './pictures'
import { QuizImageSchema } from './quizzes'
import { numericFields } from './numeric-key'
import { UploadGraceSchema } from './written-answers'

export const adminLimits = {
  titleLength: 300,
  questionTextLength: 5_000,
  optionTextLength: 2_000,
  hintLength: 5_000,
  topicLength: 100,
  captionLength: 500,
  /** UTF-8 bytes of one SVG as sent. */
  svgBytes: 200 * 1024,
  minOptions: 2,
  maxOptions: 10,
  maxQuestions: 500,
  durationMinutes: { min: 1, max: 1440 },
  allowedAttempts: { min: 1, max: 1000 },
} as const

/** SPEC.md's form defaults, applied by create-from-JSON to absent fields. */
export const quizDefaults = {
  duration_minutes: 90,
  allowed_attempts: 3,
  difficulty: 'medium',
  is_paid_tier: false,
} as const

export const adminMessages = {
  required: 'This field is required.',
  notNull: 'This field may not be null.',
  blank: 'This field may not be blank.',
  tooLong: (max: number) => `Ensure this field has no more than ${max} characters.`,
  timestamp:
    'Enter a date and time in ISO 8601 with a time zone, such as 2026-11-22T07:00:00Z or 2026-11-22T12:45:00+05:45.',
  endAfterStart: 'The end time must be after the start time.',
  startBeforeEnd: 'The start time must be before the end time.',
  optionCount: `A question needs ${adminLimits.minOptions} to ${adminLimits.maxOptions} options.`,
  exactlyOneCorrect: 'Exactly one option must be marked correct.',
  svgTooLarge: 'An SVG image may be at most 200 KB.',
  questionCount: `A quiz needs 1 to ${adminLimits.maxQuestions} questions.`,
  duration: `Duration must be a whole number of minutes from ${adminLimits.durationMinutes.min} to ${adminLimits.durationMinutes.max}.`,
  attempts: `Allowed attempts must be a whole number from ${adminLimits.allowedAttempts.min} to ${adminLimits.allowedAttempts.max}.`,
  publishEmpty: 'Add at least one question to the paper before publishing the quiz.',
  unpublishAttempted: 'A quiz that learners have attempted cannot be unpublished.',
} as const

/** A draft is invisible to learners until it is published (docs/decisions/048). */
export const QuizStatusSchema = z.enum(['draft', 'published'])
export type QuizStatus = z.infer<typeof QuizStatusSchema>

/** Our words for a missing key or a null, zod's own message for any other value of the wrong type. */
const required = {
  error: (issue: { input?: unknown }) =>
    issue.input === undefined ? adminMessages.required : issue.input === null ? adminMessages.notNull : undefined,
}

const text = (max: number) => z.string(required).trim().max(max, adminMessages.tooLong(max))
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, adminMessages.tooLong(max))
    .nullish()
    .transform((value) => value ?? '')

/** Bilingual input with `en` required: `{en, ne?}`; `ne` may be omitted, null or empty (API.md). */
const bilingual = (max: number) =>
  z.object({ en: text(max).min(1, adminMessages.blank), ne: optionalText(max) }, required)

/** Bilingual input where both languages may be empty (captions). */
const optionalBilingual = (max: number) =>
  z
    .object({ en: optionalText(max), ne: optionalText(max) })
    .nullish()
    .transform((value) => value ?? { en: '', ne: '' })

/** A hint is `{en, ne?}` or null; one with both languages empty is no hint, one with only `ne` is a mistake. */
const hint = z
  .object({ en: optionalText(adminLimits.hintLength), ne: optionalText(adminLimits.hintLength) })
  .nullish()
  .refine((value) => !value || value.en !== '' || value.ne === '', { message: adminMessages.blank, path: ['en'] })
  .transform((value) => (value && value.en !== '' ? value : null))

const isoWithSeconds = z.iso.datetime({ offset: true })
const isoWithMinutes = z.iso.datetime({ offset: true, precision: -1 })

/** ISO 8601 with `Z` or an offset, to the minute or finer (API.md: timestamps without an offset are refused). */
export const AdminTimestampSchema = z
  .string(required)
  .refine(
    (value) => isoWithSeconds.safeParse(value).success || isoWithMinutes.safeParse(value).success,
    adminMessages.timestamp,
  )

const utf8Length = (value: string) => {
  let bytes = 0
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < value.length) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

/**
 * SVG markup as sent. The server also sanitises every SVG before validating the rest (server/src/admin/
 * image-fields.ts), so markup it refuses is reported at this field's path with every other problem.
 */
export const SvgInputSchema = z
  .string(required)
  .trim()
  .min(1, adminMessages.blank)
  .refine((svg) => svg.length <= adminLimits.svgBytes && utf8Length(svg) <= adminLimits.svgBytes, {
    message: adminMessages.svgTooLarge,
    abort: true,
  })

const duration = z
  .number(required)
  .int(adminMessages.duration)
  .min(adminLimits.durationMinutes.min, adminMessages.duration)
  .max(adminLimits.durationMinutes.max, adminMessages.duration)
const attempts = z
  .number(required)
  .int(adminMessages.attempts)
  .min(adminLimits.allowedAttempts.min, adminMessages.attempts)
  .max(adminLimits.allowedAttempts.max, adminMessages.attempts)
const difficulty = z.enum(DifficultySchema.options, required)
const isPaidTier = z.boolean(required)
/** Each attempt draws its own order of questions / options when it starts (API.md "Exam feel"). */
const shuffle = z.boolean(required)

/** Input helpers shared with the bank and paper schemas (contracts/src/papers.ts). */
export const adminInput = { required, text, optionalText, bilingual, optionalBilingual, hint }

const hasExactlyOneCorrect = (options: unknown[]) =>
  options.filter((option) => (option as { is_correct?: unknown } | null)?.is_correct === true).length === 1

/**
 * `{svg, caption?}` or `{picture, caption?}` (API.md "Pictures in questions") or null; absent is null. The server
 * re-encodes and stores a sent picture before validating the rest (server/src/admin/image-fields.ts), so what the
 * services receive is always `{url, width, height}` of a stored picture.
 */
export const ImageInputSchema = z
  .object({
    svg: SvgInputSchema.nullish().transform((value) => value ?? null),
    picture: PictureInputSchema.nullish().transform((value) => value ?? null),
    caption: optionalBilingual(adminLimits.captionLength),
  })
  .superRefine((image, context) => {
    if (image.svg !== null && image.picture !== null)
      context.addIssue({ code: 'custom', message: pictureMessages.svgAndPicture, path: ['picture'] })
    // No drawing and no picture: the drawing is what was asked for before pictures came.
    if (image.svg === null && image.picture === null)
      context.addIssue({ code: 'custom', message: adminMessages.required, path: ['svg'] })
  })
  .nullish()
  .transform((value) => value ?? null)

export const OptionInputSchema = z.object({
  text: bilingual(adminLimits.optionTextLength),
  // Only the right answer needs marking in a pasted quiz: an absent is_correct is false.
  is_correct: z.boolean(required).default(false),
  image: ImageInputSchema,
})

/**
 * A choice question (`type` absent or `choice`); a written one is contracts/src/written.ts's, a multiple or numeric
 * one contracts/src/question-types.ts's (the body's `type` chooses among them before this runs).
 */
export const QuestionInputSchema = z.object({
  type: z
    .enum(['choice', 'multiple', 'numeric', 'written'], {
      message: 'A question is of type choice, multiple, numeric or written.',
    })
    .default('choice')
    .transform(() => 'choice' as const),
  text: bilingual(adminLimits.questionTextLength),
  hint,
  topic: optionalText(adminLimits.topicLength),
  image: ImageInputSchema,
  options: z
    .array(OptionInputSchema, required)
    .min(adminLimits.minOptions, adminMessages.optionCount)
    .max(adminLimits.maxOptions, adminMessages.optionCount)
    // `when` runs the check even when some option is itself invalid, so both problems are reported at once.
    .refine(hasExactlyOneCorrect, {
      message: adminMessages.exactlyOneCorrect,
      when: (payload) => Array.isArray(payload.value),
    }),
})

/** A question as an admin sends it (POST and PUT of the question routes, and each of create-from-JSON's). */
export type QuestionInput = z.input<typeof QuestionInputSchema>

/** `per_attempt`: each attempt draws its own questions; `frozen`: one draw shared by every attempt. */
export const DrawModeSchema = z.enum(['per_attempt', 'frozen'])
export type DrawMode = z.infer<typeof DrawModeSchema>

/** A live schedule as sent: `null` makes the quiz an ordinary one again (API.md "Live mocks"). */
export const LiveInputSchema = z
  .object({
    starts_at: AdminTimestampSchema,
    join_minutes: z
      .number(required)
      .int(liveMessages.joinMinutes)
      .min(liveLimits.joinMinutes.min, liveMessages.joinMinutes)
      .max(liveLimits.joinMinutes.max, liveMessages.joinMinutes),
  })
  .nullable()
export type LiveInput = z.input<typeof LiveInputSchema>

/** PATCH: any subset of the quiz's details. `end_time: null` removes the end; the start cannot be removed. */
export const QuizPatchSchema = z.object({
  title: bilingual(adminLimits.titleLength).optional(),
  start_time: AdminTimestampSchema.optional(),
  end_time: AdminTimestampSchema.nullable().optional(),
  duration_minutes: duration.optional(),
  is_paid_tier: isPaidTier.optional(),
  allowed_attempts: attempts.optional(),
  difficulty: difficulty.optional(),
  shuffle_questions: shuffle.optional(),
  shuffle_options: shuffle.optional(),
  draw_mode: DrawModeSchema.optional(),
  challenge_days: ChallengeDaysSchema.optional(),
  upload_grace_minutes: UploadGraceSchema.optional(),
  live: LiveInputSchema.optional(),
})
export type QuizPatch = z.input<typeof QuizPatchSchema>

/**
 * `POST /api/admin/quizzes/`: the details of PATCH with the title required; the server fills SPEC.md's form
 * defaults (start now, no end, 90 minutes, 3 attempts, medium, free) and makes a draft with no questions.
 */
export const QuizCreateSchema = QuizPatchSchema.extend({ title: bilingual(adminLimits.titleLength) })
export type QuizCreate = z.input<typeof QuizCreateSchema>

export const QuestionParamsSchema = z.object({ id: IdSchema, questionId: IdSchema })

// Responses.

export const AdminImageSchema = QuizImageSchema
export type AdminImage = z.infer<typeof AdminImageSchema>

export const AdminOptionSchema = z.object({
  id: z.number().int(),
  text: RichTextSchema,
  is_correct: z.boolean(),
  image: AdminImageSchema,
})
export type AdminOption = z.infer<typeof AdminOptionSchema>

export const AdminQuestionSchema = z.object({
  id: z.number().int(),
  /** The question's current revision: what a key decision names. */
  revision_id: z.number().int(),
  text: RichTextSchema,
  hint: RichTextSchema.nullable(),
  topic: z.string(),
  image: AdminImageSchema,
  /**
   * `options[].is_correct` is the key the revision scores on where it names one right option (a `change` or a
   * `keep`); after `accept_several` or `drop` it is the key as written, and `key` says what was decided.
   */
  options: z.array(AdminOptionSchema),
  /** The revision's decided key (docs/decisions/036), or null. */
  key: QuestionKeySchema,
  type: QuestionTypeSchema,
  /** A numeric question's accepted answer and decimals (API.md "Question types"); null for other types. */
  ...numericFields,
  /** A written question's own fields (API.md "Written answers marked by rubric"); null for a choice question. */
  marks: z.number().nullable(),
  word_limit: z.number().int().nullable(),
  model_answer: RichTextSchema.nullable(),
})
export type AdminQuestion = z.infer<typeof AdminQuestionSchema>

export const AdminQuizSchema = z.object({
  id: z.number().int(),
  title: BilingualSchema,
  start_time: z.string(),
  end_time: z.string().nullable(),
  duration_minutes: z.number().int(),
  difficulty: DifficultySchema,
  is_paid_tier: z.boolean(),
  allowed_attempts: z.number().int(),
  shuffle_questions: z.boolean(),
  shuffle_options: z.boolean(),
  challenge_days: z.number().int(),
  /** Minutes after an attempt's deadline during which written answers' pages are still accepted. */
  upload_grace_minutes: z.number().int(),
  live: LiveScheduleSchema.nullable(),
  question_count: z.number().int(),
  status: QuizStatusSchema,
})
export type AdminQuiz = z.infer<typeof AdminQuizSchema>

export const AdminQuizListSchema = z.array(AdminQuizSchema)

export const AdminQuizDetailSchema = AdminQuizSchema.extend({ questions: z.array(AdminQuestionSchema) })
export type AdminQuizDetail = z.infer<typeof AdminQuizDetailSchema>

export const CreatedQuizSchema = z.object({ quiz_id: z.number().int() })
export type CreatedQuiz = z.infer<typeof CreatedQuizSchema>
