// Request and response schemas of API.md "Question bank" and "Papers: sections, marks and draws".
import { z } from 'zod'
import {
  AdminQuestionSchema,
  AdminQuizDetailSchema,
  adminInput,
  adminLimits,
  adminMessages,
  AdminTimestampSchema,
  DrawModeSchema,
  LiveInputSchema,
  QuestionInputSchema,
  quizDefaults,
  QuizStatusSchema,
} from './admin'
import { ChallengeDaysSchema, challengeDefaults } from './challenges'
import { BilingualSchema, DifficultySchema, QuestionTypeSchema, RichTextSchema } from './common'
import { AttemptSectionSchema } from './sections'
import { anyType, MultipleQuestionInputSchema, NumericQuestionInputSchema } from './question-types'
import { passageLimits, passageMessages, PassageInputSchema } from './passages'
import { writtenQuestionFields } from './written'
import { UploadGraceSchema, writtenAnswerLimits } from './written-answers'

const { required, text } = adminInput

export const bankLimits = {
  tags: 20,
  tagLength: 40,
  sourceLength: 200,
  searchLength: 200,
  drawCount: { min: 1, max: 500 },
  marks: { min: 0, max: 100 },
  sectionTitleLength: 200,
  sections: 50,
  itemsPerSection: 500,
  pageSize: { min: 1, max: 500, default: 50 },
} as const

export const bankMessages = {
  tagCount: `A question may have at most ${bankLimits.tags} tags.`,
  marksDecimals: 'Marks may have at most 2 decimals.',
  marksCorrect: 'Marks for a right answer must be from 0.01 to 100.',
  marksWrong: 'Marks taken off for a wrong answer must be from 0 to 100.',
  timeLimit: `A section's time limit must be a whole number of minutes from ${adminLimits.durationMinutes.min} to ${adminLimits.durationMinutes.max}, or null.`,
  drawCount: `A draw takes ${bankLimits.drawCount.min} to ${bankLimits.drawCount.max} questions.`,
  sectionCount: `A paper needs 1 to ${bankLimits.sections} sections.`,
  item: 'An item is a question, {question_id}, {passage_id} or {draw}.',
  unknownQuestion: 'No such question in the bank.',
  duplicateQuestion: 'This question is already in the paper.',
  poolTooSmall: (matching: number) => `Only ${matching} question${matching === 1 ? '' : 's'} match.`,
  draws: (needed: number, available: number) =>
    `These draws need ${needed} different questions, but only ${available} match them apart from the paper's fixed questions.`,
  paperTooLarge: `A paper may hold at most ${adminLimits.maxQuestions} questions.`,
  paperEmpty: 'A paper needs at least one question.',
  multipleScheme: 'A scheme is all_or_nothing or partial.',
  partialMarks: 'Partial marks must be from 0 to 100.',
  partialAboveCorrect: "Partial marks must not be above the section's marks for a right answer.",
  mixedTimes: 'Either every section has a time limit or none has.',
  durationFromSections: "This quiz's duration is the sum of its sections' time limits.",
  eitherQuestionsOrSections: 'Send questions or sections, not both.',
  inUse: 'This question is a fixed item of a quiz\u2019s paper; remove it from those papers first.',
  paperUnavailable: "This quiz's paper cannot be drawn right now. Please tell your institute.",
  drawPoolShrunk: (matching: number, count: number) =>
    `This draw needs ${count} questions but only ${matching} match now (questions were deleted).`,
  frozenQuestionDeleted: 'A question of this frozen draw has been deleted: draw again before learners start.',
  redrawRefused: 'This quiz has finished attempts: its paper can no longer be drawn again.',
  notACopy: "This question was not copied from the platform's bank.",
  noUpdateAvailable: 'This question already has its source\u2019s latest revision.',
  sourceGone: "The platform's bank no longer has this question's source.",
  platformBankNeedsInstitutes: "The platform's bank is written once the deployment has more than one institute.",
} as const

/** A whole number of hundredths, so 0.1 + 0.2 style drift can never reach a score. */
const hasAtMostTwoDecimals = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6

const marks = (min: number, message: string) =>
  z
    .number(required)
    .min(min, message)
    .max(bankLimits.marks.max, message)
    .refine(hasAtMostTwoDecimals, bankMessages.marksDecimals)

export const MarksCorrectSchema = marks(0.01, bankMessages.marksCorrect)
export const MarksWrongSchema = marks(0, bankMessages.marksWrong)

/** Marks as numbers for the wire, hundredths (integers) everywhere inside the server. */
export const toHundredths = (value: number) => Math.round(value * 100)
export const fromHundredths = (hundredths: number) => hundredths / 100

const tagsInput = z
  .array(text(bankLimits.tagLength).min(1, adminMessages.blank), required)
  .max(bankLimits.tags, bankMessages.tagCount)
  // Tags compare case-insensitively; the first spelling of a repeat is kept.
  .transform((tags) => {
    const seen = new Set<string>()
    return tags.filter((tag) => {
      const key = tag.toLowerCase()
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
  })

const sourceInput = z
  .string()
  .trim()
  .max(bankLimits.sourceLength, adminMessages.tooLong(bankLimits.sourceLength))
  .nullish()
  .transform((value) => (value ? value : null))

/** A written question as an admin sends it (API.md "Written answers marked by rubric"). */
export const WrittenQuestionInputSchema = z.object(writtenQuestionFields)

/** A question of any type, as the quiz routes and create-from-JSON take it. */
export const AnyQuestionInputSchema = anyType({
  choice: QuestionInputSchema,
  multiple: MultipleQuestionInputSchema,
  numeric: NumericQuestionInputSchema,
  written: WrittenQuestionInputSchema,
})
export type AnyQuestionInput = z.output<typeof AnyQuestionInputSchema>

const bankFields = {
  tags: tagsInput.default([]),
  difficulty: DifficultySchema.nullish().transform((value) => value ?? null),
  source: sourceInput,
  /** Cannot be answered without seeing its picture (API.md "Blind learners"); absent keeps it as it is (new: false). */
  needs_sight: z.boolean({ error: 'Send true or false.' }).optional(),
}

/** A bank question as an admin sends it: a quiz question of either type plus tags, difficulty and source. */
const ChoiceBankQuestionInputSchema = QuestionInputSchema.extend(bankFields)
const WrittenBankQuestionInputSchema = WrittenQuestionInputSchema.extend(bankFields)
const MultipleBankQuestionInputSchema = MultipleQuestionInputSchema.extend(bankFields)
const NumericBankQuestionInputSchema = NumericQuestionInputSchema.extend(bankFields)
export const BankQuestionInputSchema = anyType({
  choice: ChoiceBankQuestionInputSchema,
  multiple: MultipleBankQuestionInputSchema,
  numeric: NumericBankQuestionInputSchema,
  written: WrittenBankQuestionInputSchema,
})
export type BankQuestionInput =
  | z.input<typeof ChoiceBankQuestionInputSchema>
  | z.input<typeof MultipleBankQuestionInputSchema>
  | z.input<typeof NumericBankQuestionInputSchema>
  | z.input<typeof WrittenBankQuestionInputSchema>

// Items of a paper.

export const DrawFilterSchema = z.object({
  topic: z.string().trim().max(adminLimits.topicLength).nullish(),
  tags: z.array(text(bankLimits.tagLength).min(1, adminMessages.blank)).max(bankLimits.tags).nullish(),
  difficulty: DifficultySchema.nullish(),
  source: z.string().trim().max(bankLimits.sourceLength).nullish(),
  /** `choice` or `written`; absent or null draws either. */
  type: QuestionTypeSchema.nullish(),
  /** True: whole bank passages only, `count` counting their questions; absent or false: lone questions only. */
  passages: z
    .boolean()
    .nullish()
    .transform((value) => value ?? false),
  count: z
    .number(required)
    .int(bankMessages.drawCount)
    .min(bankLimits.drawCount.min, bankMessages.drawCount)
    .max(bankLimits.drawCount.max, bankMessages.drawCount),
})
export type DrawFilter = z.infer<typeof DrawFilterSchema>

const BodyIdSchema = z.number(required).int().positive().max(2_147_483_647)
export const FixedItemInputSchema = z.object({ question_id: BodyIdSchema })
export const DrawItemInputSchema = z.object({ draw: DrawFilterSchema })
/** A bank passage: all of its questions, in its order (docs/decisions/117). */
export const PassageItemInputSchema = z.object({ passage_id: BodyIdSchema })
/** Create-from-JSON: a new passage and its new questions. */
export const PassageBlockInputSchema = z.object({
  passage: PassageInputSchema,
  items: z
    .array(AnyQuestionInputSchema, required)
    .min(1, passageMessages.empty)
    .max(passageLimits.questions, passageMessages.tooManyQuestions),
})
export type PassageBlockInput = z.infer<typeof PassageBlockInputSchema>

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * An item chosen by its keys (`question_id`, `draw`, else an inline question when `inline`), so a mistake is
 * reported at the field's own path (`sections.0.items.2.options`) rather than as "no branch of a union matched".
 */
const itemSchema = <Inline extends boolean>(inline: Inline) =>
  z.unknown().transform((value, context) => {
    const schema = !isRecord(value)
      ? null
      : 'question_id' in value
        ? FixedItemInputSchema
        : 'draw' in value
          ? DrawItemInputSchema
          : 'passage_id' in value
            ? PassageItemInputSchema
            : inline && 'passage' in value
              ? PassageBlockInputSchema
              : inline
                ? AnyQuestionInputSchema
                : null
    if (!schema) {
      context.addIssue({ code: 'custom', message: bankMessages.item })
      return z.NEVER
    }
    const result = schema.safeParse(value)
    if (!result.success) {
      for (const issue of result.error.issues) {
        context.addIssue({ code: 'custom', message: issue.message, path: issue.path as (string | number)[] })
      }
      return z.NEVER
    }
    return result.data as Inline extends true
      ? | z.infer<typeof FixedItemInputSchema>
        | z.infer<typeof DrawItemInputSchema>
        | z.infer<typeof PassageItemInputSchema>
        | PassageBlockInput
        | AnyQuestionInput
      : | z.infer<typeof FixedItemInputSchema>
        | z.infer<typeof DrawItemInputSchema>
        | z.infer<typeof PassageItemInputSchema>
  })

const SectionMultipleInputSchema = z
  .object({
    scheme: z.enum(['all_or_nothing', 'partial'], { message: bankMessages.multipleScheme }).default('all_or_nothing'),
    // Absent: 1, or the section's marks_correct when that is less (the section's transform fills it).
    partial_marks: marks(0, bankMessages.partialMarks).nullish(),
  })
  .nullish()

const sectionSchema = <Inline extends boolean>(inline: Inline) =>
  z
    .object({
      title: z
        .object({
          en: z
            .string()
            .trim()
            .max(bankLimits.sectionTitleLength, adminMessages.tooLong(bankLimits.sectionTitleLength)),
          ne: z
            .string()
            .trim()
            .max(bankLimits.sectionTitleLength)
            .nullish()
            .transform((value) => value ?? ''),
        })
        .nullish()
        .transform((value) => value ?? { en: '', ne: '' }),
      marks_correct: MarksCorrectSchema.default(1),
      marks_wrong: MarksWrongSchema.default(0.2),
      time_limit_minutes: z
        .number()
        .int(bankMessages.timeLimit)
        .min(adminLimits.durationMinutes.min, bankMessages.timeLimit)
        .max(adminLimits.durationMinutes.max, bankMessages.timeLimit)
        .nullish()
        .transform((value) => value ?? null),
      /** How the section marks multiple questions (API.md "Question types"); absent: all or nothing, 1 a right option. */
      multiple: SectionMultipleInputSchema,
      /** False: a wrong numeric answer loses nothing (GATE). */
      numeric_negative: z.boolean(required).default(true),
      items: z.array(itemSchema(inline), required).max(bankLimits.itemsPerSection, bankMessages.paperTooLarge),
    })
    .superRefine((section, context) => {
      const partial = section.multiple?.partial_marks
      if (partial !== undefined && partial !== null && partial > section.marks_correct)
        context.addIssue({
          code: 'custom',
          message: bankMessages.partialAboveCorrect,
          path: ['multiple', 'partial_marks'],
        })
    })
    .transform(({ multiple, ...section }) => ({
      ...section,
      multiple: {
        scheme: multiple?.scheme ?? ('all_or_nothing' as const),
        partial_marks: multiple?.partial_marks ?? Math.min(1, section.marks_correct),
      },
    }))

export const SectionInputSchema = sectionSchema(false)
export type SectionInput = z.infer<typeof SectionInputSchema>
export const SectionWithQuestionsInputSchema = sectionSchema(true)
export type SectionWithQuestionsInput = z.infer<typeof SectionWithQuestionsInputSchema>

const sections = <Inline extends boolean>(inline: Inline) =>
  z
    .array(sectionSchema(inline), required)
    .min(1, bankMessages.sectionCount)
    .max(bankLimits.sections, bankMessages.sectionCount)

/** `PUT /api/admin/quizzes/{id}/sections/`: the whole paper. */
export const SectionsBodySchema = z.object({ sections: sections(false) })
export type SectionsBody = z.input<typeof SectionsBodySchema>

const isoOrNothing = AdminTimestampSchema.nullish()

/**
 * The pasted quiz of create-from-JSON, with SPEC.md's defaults for what is absent: `questions` (one default
 * section) or `sections`. `duration_minutes` stays undefined when absent so timed sections can set it.
 */
export const CreateQuizFromJsonSchema = z
  .object({
    title: adminInput.bilingual(adminLimits.titleLength),
    start_time: isoOrNothing,
    end_time: isoOrNothing,
    duration_minutes: z
      .number(required)
      .int(adminMessages.duration)
      .min(adminLimits.durationMinutes.min, adminMessages.duration)
      .max(adminLimits.durationMinutes.max, adminMessages.duration)
      .optional(),
    allowed_attempts: z
      .number(required)
      .int(adminMessages.attempts)
      .min(adminLimits.allowedAttempts.min, adminMessages.attempts)
      .max(adminLimits.allowedAttempts.max, adminMessages.attempts)
      .default(quizDefaults.allowed_attempts),
    difficulty: z.enum(DifficultySchema.options, required).default(quizDefaults.difficulty),
    is_paid_tier: z.boolean(required).default(quizDefaults.is_paid_tier),
    shuffle_questions: z.boolean(required).default(false),
    shuffle_options: z.boolean(required).default(false),
    draw_mode: DrawModeSchema.default('per_attempt'),
    challenge_days: ChallengeDaysSchema.default(challengeDefaults.challenge_days),
    upload_grace_minutes: UploadGraceSchema.default(writtenAnswerLimits.uploadGraceMinutes.default),
    live: LiveInputSchema.default(null),
    // A draft may come with no questions (its paper is filled in the admin later); a published quiz needs some.
    status: QuizStatusSchema.default('published'),
    questions: z
      .array(AnyQuestionInputSchema, required)
      .max(adminLimits.maxQuestions, adminMessages.questionCount)
      .optional(),
    sections: sections(true).optional(),
  })
  .superRefine((quiz, context) => {
    const published = quiz.status === 'published'
    if (published && quiz.questions === undefined && quiz.sections === undefined)
      context.addIssue({ code: 'custom', message: adminMessages.required, path: ['questions'] })
    if (published && quiz.questions?.length === 0)
      context.addIssue({ code: 'custom', message: adminMessages.questionCount, path: ['questions'] })
    if (quiz.questions !== undefined && quiz.sections !== undefined)
      context.addIssue({ code: 'custom', message: bankMessages.eitherQuestionsOrSections, path: ['sections'] })
  })
  // Both bounds given: checked here, with every other field. A start that defaults to "now" is checked
  // by the server, which owns the clock.
  .refine((quiz) => !quiz.start_time || !quiz.end_time || Date.parse(quiz.start_time) < Date.parse(quiz.end_time), {
    message: adminMessages.endAfterStart,
    path: ['end_time'],
    when: (payload) => {
      if (typeof payload.value !== 'object' || payload.value === null) return false
      const { start_time, end_time } = payload.value as { start_time?: unknown; end_time?: unknown }
      return AdminTimestampSchema.safeParse(start_time).success && AdminTimestampSchema.safeParse(end_time).success
    },
  })
export type CreateQuizFromJson = z.input<typeof CreateQuizFromJsonSchema>

// Bank routes.

const bankPage = z.coerce.number().int().min(1).max(1_000_000).default(1)
const bankPageSize = z.coerce
  .number()
  .int()
  .min(bankLimits.pageSize.min)
  .max(bankLimits.pageSize.max)
  .default(bankLimits.pageSize.default)

/** `GET /api/admin/bank/questions/` filters; `difficulty=none` finds unrated questions. */
const bankTag = z.string().trim().max(bankLimits.tagLength)

export const BankListQuerySchema = z.object({
  search: z.string().trim().max(bankLimits.searchLength).optional(),
  topic: z.string().trim().max(adminLimits.topicLength).optional(),
  // Repeated (`tag=a&tag=b`) means all of them, as a draw's tags do: the Paper tab counts a draw's pool with it.
  tag: z
    .union([bankTag, z.array(bankTag).max(bankLimits.tags)])
    .optional()
    .transform((value) => (value === undefined ? undefined : [value].flat().filter((tag) => tag !== ''))),
  difficulty: z.enum([...DifficultySchema.options, 'none']).optional(),
  source: z.string().trim().max(bankLimits.sourceLength).optional(),
  type: QuestionTypeSchema.optional(),
  unused: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  /** Questions with a picture and no caption, which a blind learner cannot hear (API.md "Blind learners"). */
  no_description: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  ids: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10}){0,499}$/, 'ids is a comma-separated list of question ids.')
    .optional()
    .transform((value) => (value ? value.split(',').map(Number) : undefined)),
  page: bankPage,
  page_size: bankPageSize,
})
export type BankListQuery = z.input<typeof BankListQuerySchema>

/**
 * `GET /api/admin/bank/passages/pool/`: what a `passages: true` draw with these filters may take, the question count
 * of each whole passage in its pool, so the Paper tab says before saving whether a count can be made (decision 131).
 */
export const PassagePoolQuerySchema = BankListQuerySchema.pick({
  topic: true,
  tag: true,
  source: true,
  type: true,
}).extend({ difficulty: DifficultySchema.optional() })
export type PassagePoolQuery = z.input<typeof PassagePoolQuerySchema>
export const PassagePoolSchema = z.object({ passage_sizes: z.array(z.number().int()) })
export type PassagePool = z.infer<typeof PassagePoolSchema>

export const QuizRefSchema = z.object({ quiz_id: z.number().int(), title: BilingualSchema })

/** A question copied from the platform's bank (API.md "Institutes": Banks): its id there and the revision taken. */
export const CopiedFromSchema = z.object({ platform_question_id: z.number().int(), revision: z.number().int() })
export type CopiedFrom = z.infer<typeof CopiedFromSchema>

/** Where a bank question came from, and whether its source has a revision not yet taken (update-from-source). */
const copyFields = { copied_from: CopiedFromSchema.nullable(), update_available: z.boolean() }

/** API.md "Blind learners": marked as needing sight; a picture (its own or an option's) without a caption. */
const blindLearnerFields = { needs_sight: z.boolean().optional(), no_description: z.boolean().optional() }

export const BankListItemSchema = z.object({
  id: z.number().int(),
  type: QuestionTypeSchema,
  /** A written question's marks; null for a choice question. */
  marks: z.number().nullable(),
  text: RichTextSchema,
  topic: z.string(),
  tags: z.array(z.string()),
  difficulty: DifficultySchema.nullable(),
  source: z.string().nullable(),
  option_count: z.number().int(),
  used_in: z.array(QuizRefSchema),
  responses: z.number().int(),
  facility: z.number().nullable(),
  ...blindLearnerFields,
  ...copyFields,
})
export type BankListItem = z.infer<typeof BankListItemSchema>

export const BankListSchema = z.object({ count: z.number().int(), results: z.array(BankListItemSchema) })
export type BankList = z.infer<typeof BankListSchema>

/** A bank question as the admin reads and edits it; a written one has no options and its own marks. */
export const BankQuestionSchema = AdminQuestionSchema.extend({
  tags: z.array(z.string()),
  difficulty: DifficultySchema.nullable(),
  source: z.string().nullable(),
  ...blindLearnerFields,
  used_in: z.array(QuizRefSchema),
  ...copyFields,
})
export type BankQuestion = z.infer<typeof BankQuestionSchema>

export const BankFacetsSchema = z.object({
  topics: z.array(
    z.object({
      topic: z.string(),
      easy: z.number().int(),
      medium: z.number().int(),
      hard: z.number().int(),
      unrated: z.number().int(),
      total: z.number().int(),
    }),
  ),
  tags: z.array(z.object({ tag: z.string(), total: z.number().int() })),
  sources: z.array(z.object({ source: z.string(), total: z.number().int() })),
  total: z.number().int(),
})
export type BankFacets = z.infer<typeof BankFacetsSchema>

/** 409 `question_in_use`. */
export const QuestionInUseSchema = z.object({
  detail: z.string(),
  code: z.literal('question_in_use'),
  quizzes: z.array(z.object({ id: z.number().int(), title: BilingualSchema })),
})

/** `POST /api/admin/quizzes/{id}/questions/` with an existing bank question. */
export const AddBankQuestionBodySchema = z.object({ question_id: BodyIdSchema })

/** The body of `POST /api/admin/quizzes/{id}/questions/`: a new question, or `{question_id}` of a bank question. */
export const QuizQuestionBodySchema = z.unknown().transform((value, context) => {
  const schema = isRecord(value) && 'question_id' in value ? AddBankQuestionBodySchema : AnyQuestionInputSchema
  const result = schema.safeParse(value)
  if (result.success) return result.data as z.infer<typeof AddBankQuestionBodySchema> | AnyQuestionInput
  for (const issue of result.error.issues)
    context.addIssue({ code: 'custom', message: issue.message, path: issue.path as (string | number)[] })
  return z.NEVER
})

// The paper in admin payloads.

const DrawOutputSchema = z.object({
  topic: z.string().nullable(),
  tags: z.array(z.string()),
  // `easy`, `medium`, `hard` or null. A plain string: an enum that may be null inside a union cannot be written by
  // the serializer (its branch check refuses null).
  difficulty: z.string().nullable(),
  source: z.string().nullable(),
  // A plain string, as `difficulty`: `choice`, `written` or null.
  type: z.string().nullable(),
  count: z.number().int(),
  /** Whole passages only (docs/decisions/117). */
  passages: z.boolean().optional(),
})
export type DrawOutput = z.infer<typeof DrawOutputSchema>

/** A question a frozen paper's draw took, as the Paper tab lists it. */
export const DrawnQuestionSchema = z.object({ id: z.number().int(), text: RichTextSchema, topic: z.string() })
export type DrawnQuestion = z.infer<typeof DrawnQuestionSchema>

export const AdminPaperItemSchema = z.union([
  z.object({ question_id: z.number().int() }),
  /** A passage as set: its questions as they were when the paper was saved. */
  z.object({ passage_id: z.number().int(), question_ids: z.array(z.number().int()) }),
  z.object({
    draw: DrawOutputSchema,
    pool: z.number().int(),
    /** A frozen paper's drawn questions for this draw, in the draw's order; empty until it is drawn. */
    drawn: z.array(DrawnQuestionSchema),
  }),
])
export type AdminPaperItem = z.infer<typeof AdminPaperItemSchema>

export const AdminSectionSchema = z.object({
  id: z.number().int(),
  title: BilingualSchema,
  marks_correct: z.number(),
  marks_wrong: z.number(),
  time_limit_minutes: z.number().int().nullable(),
  multiple: z.object({ scheme: z.enum(['all_or_nothing', 'partial']), partial_marks: z.number() }),
  numeric_negative: z.boolean(),
  items: z.array(AdminPaperItemSchema),
})
export type AdminSection = z.infer<typeof AdminSectionSchema>

export const PaperWarningSchema = z.object({ path: z.string(), message: z.string() })
export type PaperWarning = z.infer<typeof PaperWarningSchema>

/** What the admin quiz adds for its paper. */
export const AdminPaperSchema = z.object({
  draw_mode: DrawModeSchema,
  sections: z.array(AdminSectionSchema),
  warnings: z.array(PaperWarningSchema),
})
export type AdminPaper = z.infer<typeof AdminPaperSchema>

/** `GET /api/admin/quizzes/{id}/` (and PATCH, PUT sections): the quiz, its fixed questions and its paper. */
export const AdminQuizWithPaperSchema = AdminQuizDetailSchema.extend(AdminPaperSchema.shape)
export type AdminQuizWithPaper = z.infer<typeof AdminQuizWithPaperSchema>

// The paper in learner payloads.

export const SectionsNextResultSchema = z.object({ sections: z.array(AttemptSectionSchema) })
