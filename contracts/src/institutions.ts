// Request and response schemas of API.md "Institutions: attempts, statistics, learners".
import { z } from 'zod'
import { IsoDateTimeSchema, RichTextSchema } from './common'
import { AttemptModeSchema } from './sittings'

export const institutionLimits = {
  pageSize: { min: 1, max: 500, default: 50 },
  extraTimePercent: { min: 0, max: 300 },
  searchLength: 150,
} as const

export const institutionMessages = {
  extraTime: `Extra time must be a whole number of percent from ${institutionLimits.extraTimePercent.min} to ${institutionLimits.extraTimePercent.max}.`,
  pageSize: `page_size must be a whole number from ${institutionLimits.pageSize.min} to ${institutionLimits.pageSize.max}.`,
  page: 'page must be a whole number from 1.',
  untilWithoutAccess: 'An end date cannot go with has_paid_access false.',
  emptyPatch: 'Send at least one of has_paid_access, paid_access_until and extra_time_percent.',
  pageOutOfRange: 'Invalid page.',
} as const

const page = z.coerce
  .number({ error: institutionMessages.page })
  .int(institutionMessages.page)
  .min(1, institutionMessages.page)
  .max(1_000_000, institutionMessages.page)
  .default(1)
const pageSize = z.coerce
  .number({ error: institutionMessages.pageSize })
  .int(institutionMessages.pageSize)
  .min(institutionLimits.pageSize.min, institutionMessages.pageSize)
  .max(institutionLimits.pageSize.max, institutionMessages.pageSize)
  .default(institutionLimits.pageSize.default)

export const AttemptSelectionSchema = z.enum(['all', 'first', 'best'])
export type AttemptSelection = z.infer<typeof AttemptSelectionSchema>
export const StatisticsSelectionSchema = z.enum(['first', 'all'])
export type StatisticsSelection = z.infer<typeof StatisticsSelectionSchema>

export const QuizAttemptsQuerySchema = z.object({
  which: AttemptSelectionSchema.default('all'),
  page,
  page_size: pageSize,
})
export type QuizAttemptsQuery = z.input<typeof QuizAttemptsQuerySchema>
export const QuizAttemptsCsvQuerySchema = z.object({ which: AttemptSelectionSchema.default('all') })
export const QuizStatisticsQuerySchema = z.object({ which: StatisticsSelectionSchema.default('first') })

export const QuizAttemptRowSchema = z.object({
  attempt_id: z.number().int(),
  user: z.object({ id: z.number().int(), username: z.string(), full_name: z.string() }),
  attempt_number: z.number().int(),
  score: z.number(),
  correct: z.number().int(),
  incorrect: z.number().int(),
  unanswered: z.number().int(),
  started_at: IsoDateTimeSchema,
  completed_timestamp: IsoDateTimeSchema,
  /** 0 for a paper attempt, which starts and finishes at its sitting's `held_at` (docs/decisions/056). */
  duration_seconds: z.number().int(),
  late: z.boolean(),
  mode: AttemptModeSchema,
})
export type QuizAttemptRow = z.infer<typeof QuizAttemptRowSchema>
export const QuizAttemptPageSchema = z.object({ count: z.number().int(), results: z.array(QuizAttemptRowSchema) })
export type QuizAttemptPage = z.infer<typeof QuizAttemptPageSchema>

export const QuestionFlagSchema = z.enum(['too_easy', 'too_hard', 'poor_discrimination'])
export type QuestionFlag = z.infer<typeof QuestionFlagSchema>

export const QuestionStatisticsSchema = z.object({
  id: z.number().int(),
  number: z.number().int(),
  text: RichTextSchema,
  topic: z.string().nullable(),
  facility: z.number().nullable(),
  discrimination: z.number().nullable(),
  unanswered: z.number().int(),
  options: z.array(
    z.object({ id: z.number().int(), text: RichTextSchema, is_correct: z.boolean(), count: z.number().int() }),
  ),
  other: z.number().int(),
  flags: z.array(QuestionFlagSchema),
  /** `multiple`: the facility is the mean of marks gained over full marks (API.md "Question types"). */
  type: z.enum(['choice', 'multiple', 'numeric']),
  /** A numeric question's five most frequent wrong values, most frequent first; absent for other types. */
  wrong_values: z.array(z.object({ value: z.string(), count: z.number().int() })).optional(),
})
export type QuestionStatistics = z.infer<typeof QuestionStatisticsSchema>

/**
 * A written question of the quiz over the chosen attempts (whose written parts are all released): `marked` answers,
 * their `mean` marks and the `share` of the question's marks they gained (0..1); null with none marked.
 */
export const WrittenQuestionStatisticsSchema = z.object({
  id: z.number().int(),
  number: z.number().int(),
  text: RichTextSchema,
  topic: z.string().nullable(),
  max_marks: z.number(),
  marked: z.number().int(),
  mean: z.number().nullable(),
  share: z.number().nullable(),
})
export type WrittenQuestionStatistics = z.infer<typeof WrittenQuestionStatisticsSchema>

export const QuizStatisticsSchema = z.object({
  attempts: z.number().int(),
  mean: z.number().nullable(),
  median: z.number().nullable(),
  standard_deviation: z.number().nullable(),
  highest: z.number().nullable(),
  lowest: z.number().nullable(),
  cronbach_alpha: z.number().nullable(),
  standard_error: z.number().nullable(),
  /** Every attempt's score, so the web app can draw the histogram (not in API.md's list; an addition). */
  scores: z.array(z.number()),
  /** Every question of the paper, choice and written. */
  question_count: z.number().int(),
  /** Choice questions, numbered by their place in the paper; item figures (facility, alpha) are theirs alone. */
  questions: z.array(QuestionStatisticsSchema),
  written: z.array(WrittenQuestionStatisticsSchema),
})
export type QuizStatistics = z.infer<typeof QuizStatisticsSchema>

export const AdminUsersQuerySchema = z.object({
  search: z.string().trim().max(institutionLimits.searchLength).default(''),
  page,
  page_size: pageSize,
})
export type AdminUsersQuery = z.input<typeof AdminUsersQuerySchema>

export const AdminUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  full_name: z.string(),
  phone_number: z.string(),
  is_admin: z.boolean(),
  /** Reaches the marking of written answers and nothing else of the admin's. */
  is_marker: z.boolean(),
  has_paid_access: z.boolean(),
  /** The end of paid access; null with no access and with access that has no end. */
  paid_access_until: IsoDateTimeSchema.nullable(),
  extra_time_percent: z.number().int(),
  date_joined: IsoDateTimeSchema,
  finished_attempts: z.number().int(),
})
export type AdminUser = z.infer<typeof AdminUserSchema>
export const AdminUserPageSchema = z.object({ count: z.number().int(), results: z.array(AdminUserSchema) })
export type AdminUserPage = z.infer<typeof AdminUserPageSchema>

export const AdminUserPatchSchema = z
  .strictObject({
    has_paid_access: z.boolean().optional(),
    paid_access_until: IsoDateTimeSchema.nullable().optional(),
    extra_time_percent: z
      .number({ error: institutionMessages.extraTime })
      .int(institutionMessages.extraTime)
      .min(institutionLimits.extraTimePercent.min, institutionMessages.extraTime)
      .max(institutionLimits.extraTimePercent.max, institutionMessages.extraTime)
      .optional(),
    is_marker: z.boolean().optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, { message: institutionMessages.emptyPatch })
  .refine((patch) => !(patch.has_paid_access === false && patch.paid_access_until), {
    message: institutionMessages.untilWithoutAccess,
    path: ['paid_access_until'],
  })
export type AdminUserPatch = z.input<typeof AdminUserPatchSchema>

/** The paging of every admin list (`page` from 1, `page_size` 1..500, default 50). */
export { page as PageQuerySchema, pageSize as PageSizeQuerySchema }
