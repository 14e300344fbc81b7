// Request and response schemas of API.md "Written answers marked by rubric", Marking: markers' queue, marks, release.
import { z } from 'zod'
import { BilingualSchema, IdSchema, IsoDateTimeSchema } from './common'
import { PageQuerySchema } from './institutions'
import { RubricSchema, writtenLimits, writtenMessages } from './written'

export const markingLimits = {
  /** An annotation doc's JSON, in bytes, a page. */
  annotationBytes: 32 * 1024,
  /** Positions are fractions of the page's width and height, in ten-thousandths. */
  position: 10_000,
  commentLength: 5_000,
  noteLength: 500,
  claimMinutes: 10,
  pages: 12,
  /** Quizzes a page of a marker's way in (`GET /api/admin/marking/`). */
  quizzesPageSize: 50,
} as const

export const markingMessages = {
  annotationSize: `An annotation doc is at most ${markingLimits.annotationBytes / 1024} KB a page.`,
  unknownPage: 'No such page in this answer.',
  repeatedPage: 'This page appears twice.',
  claimedByOther: 'Another marker is marking this answer.',
  released: 'This answer is released; it can no longer be marked.',
  notInQuiz: 'This question is not a written question of this quiz.',
  keyWithheld: (until: string) =>
    `This live mock's key is withheld until ${until}, while learners may still be sitting it: release its written marks after that.`,
} as const

const ids = z.number().int().positive().max(2_147_483_647)
const position = z.number().int().min(0).max(markingLimits.position)
const point = z.tuple([position, position])

export const AnnotationMarkSchema = z.discriminatedUnion('k', [
  z.strictObject({
    k: z.literal('ink'),
    points: z.array(point).min(1),
    width: z.number().int().min(1).max(500),
    color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  }),
  z.strictObject({
    k: z.literal('stamp'),
    code: z.enum(['tick', 'cross', 'question', 'good']),
    x: position,
    y: position,
  }),
  z.strictObject({ k: z.literal('box'), x: position, y: position, w: position, h: position }),
  z.strictObject({ k: z.literal('note'), x: position, y: position, text: z.string().max(markingLimits.noteLength) }),
  z.strictObject({ k: z.literal('item'), item_id: ids, x: position, y: position }),
])

export const AnnotationDocSchema = z
  .strictObject({ v: z.literal(1), marks: z.array(AnnotationMarkSchema) })
  .refine((doc) => new TextEncoder().encode(JSON.stringify(doc)).length <= markingLimits.annotationBytes, {
    message: markingMessages.annotationSize,
  })
export type AnnotationDoc = z.infer<typeof AnnotationDocSchema>

const hasAtMostTwoDecimals = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6

export const EvaluationInputSchema = z.object({
  items: z.array(ids).max(writtenLimits.items).default([]),
  adjustment: z
    .number()
    .min(-writtenLimits.points, writtenMessages.points)
    .max(writtenLimits.points, writtenMessages.points)
    .refine(hasAtMostTwoDecimals, writtenMessages.decimals)
    .default(0),
  comment: z
    .object({
      en: z.string().trim().max(markingLimits.commentLength).default(''),
      ne: z.string().trim().max(markingLimits.commentLength).default(''),
    })
    .nullish()
    .transform((value) => (value && (value.en !== '' || value.ne !== '') ? value : null)),
  annotations: z
    .array(z.object({ page_id: ids, doc: AnnotationDocSchema }))
    .max(markingLimits.pages)
    .default([]),
  rubric_revision: z.number().int().min(0),
})
export type EvaluationInput = z.input<typeof EvaluationInputSchema>
export type Evaluation = z.infer<typeof EvaluationInputSchema>

export const EvaluationResultSchema = z.object({ score: z.number() })

export const MarkingParamsSchema = z.object({ id: IdSchema, questionId: IdSchema })

/**
 * One written question's answers, in API.md's words: the statuses do not overlap, so `submitted - marked - released`
 * are not yet marked.
 */
export const MarkingQuestionSchema = z.object({
  question_id: z.number().int(),
  number: z.number().int(),
  /** Every answer of the quiz's finished attempts. */
  submitted: z.number().int(),
  /** Marked and not yet released. */
  marked: z.number().int(),
  /** Released. */
  released: z.number().int(),
  /** Being marked (a live claim). */
  claimed: z.number().int(),
})
export const MarkingOverviewSchema = z.object({ questions: z.array(MarkingQuestionSchema) })
export type MarkingOverview = z.infer<typeof MarkingOverviewSchema>

/** `url` and `phone_url` as a learner's page's (WrittenPageSchema). */
export const MarkingPageSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  phone_url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
})

/** What a marker sees of an answer: no name, username, phone or roll number. */
export const MarkingAnswerSchema = z.object({
  answer_id: z.number().int(),
  anonymous_code: z.string(),
  text: z.string(),
  word_count: z.number().int(),
  pages: z.array(MarkingPageSchema),
  rubric: RubricSchema,
  evaluation: z
    .object({
      items: z.array(z.number().int()),
      adjustment: z.number(),
      comment: BilingualSchema.nullable(),
      annotations: z.array(z.object({ page_id: z.number().int(), doc: z.unknown() })),
      rubric_revision: z.number().int().nullable(),
      score: z.number(),
    })
    .nullable(),
})
export type MarkingAnswer = z.infer<typeof MarkingAnswerSchema>

/** `next` with nothing left to mark: 204. */
export const NoContentSchema = z.null()

export const ReleaseInputSchema = z.object({ question_ids: z.array(ids).max(500).optional() }).nullish()
export const ReleaseResultSchema = z.object({ released: z.number().int() })

export const MarkingQuizzesQuerySchema = z.object({ page: PageQuerySchema })

/**
 * A quiz on a marker's way in (`GET /api/admin/marking/`, docs/decisions/094). `submitted`, `marked` and `released` are
 * the overview's, summed over the quiz's written questions; `to_mark` is what `next` would hand the reader: not yet
 * marked, not blank, not the reader's own. It is at most `submitted - marked - released`.
 */
export const MarkingQuizSchema = z.object({
  id: z.number().int(),
  title: BilingualSchema,
  /** Written questions with answers of finished attempts. */
  questions: z.number().int(),
  submitted: z.number().int(),
  marked: z.number().int(),
  released: z.number().int(),
  to_mark: z.number().int(),
  /** The latest change to any of its written answers (submitted, marked or released). */
  last_activity: IsoDateTimeSchema,
})
export type MarkingQuiz = z.infer<typeof MarkingQuizSchema>

export const MarkingQuizzesSchema = z.object({
  count: z.number().int(),
  page_size: z.number().int(),
  quizzes: z.array(MarkingQuizSchema),
})
export type MarkingQuizzes = z.infer<typeof MarkingQuizzesSchema>
