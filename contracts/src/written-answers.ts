// Request and response schemas of API.md "Written answers marked by rubric": answering online and the learner's results.
import { z } from 'zod'
import { BilingualSchema, IdSchema, RichTextSchema } from './common'
import { writtenAnswerLimits } from './rules/written-answers'
import { RegradeRequestSchema } from './regrades'
import { WrittenPageSchema } from './written-pages'

export { writtenAnswerLimits }
export * from './written-pages'

export const writtenAnswerMessages = {
  attemptNotFound: 'Attempt not found.',
  questionNotFound: 'No written question of this attempt has this id.',
  pageNotFound: 'Page not found.',
  pageSize: "A page's size is phone, or none for the full page.",
  textLength: `An answer is at most ${writtenAnswerLimits.textLength.toLocaleString('en')} characters.`,
  uploadClosed: 'This attempt no longer accepts answers.',
  pageLimit: `A question takes at most ${writtenAnswerLimits.pages} pages: delete one to add another.`,
  pageOrder: "The order must name each of this answer's pages once.",
  notMultipart: 'Send the photo as multipart/form-data, in a field named image.',
  noPhoto: 'Send the photo in a field named image.',
  notAPhoto: 'The page must be a JPEG, PNG or WebP photo.',
  photoTooLarge: 'The photo is too large: at most 15 MB.',
  photoTooManyPixels: 'The photo is too large: at most 50 megapixels.',
  photoTooCostly: 'The photo takes too long to read: take it again with the camera app.',
  tooManyParts: 'Send one photo in a field named image.',
  photosBusy: 'Too many photos are being sent at once: send this one again in a few seconds.',
  uploadQuota: 'Your answer pages use all the space a learner may keep: delete pages you no longer need to add more.',
  uploadGrace: `Minutes of grace for photos are a whole number from ${writtenAnswerLimits.uploadGraceMinutes.min} to ${writtenAnswerLimits.uploadGraceMinutes.max}.`,
} as const

/** `upload_grace_minutes` on a quiz: an integer 0..60 (create-from-JSON, the admin quiz create and PATCH). */
export const UploadGraceSchema = z
  .number({
    error: (issue) => (issue.input === null ? 'This field may not be null.' : writtenAnswerMessages.uploadGrace),
  })
  .int(writtenAnswerMessages.uploadGrace)
  .min(writtenAnswerLimits.uploadGraceMinutes.min, writtenAnswerMessages.uploadGrace)
  .max(writtenAnswerLimits.uploadGraceMinutes.max, writtenAnswerMessages.uploadGrace)

export const WrittenAnswerParamsSchema = z.object({ attemptId: IdSchema, questionId: IdSchema })
export const WrittenPageParamsSchema = WrittenAnswerParamsSchema.extend({ pageId: IdSchema })

export const WrittenTextInputSchema = z.object({
  text: z.string().max(writtenAnswerLimits.textLength, writtenAnswerMessages.textLength),
})
export const WordCountSchema = z.object({ word_count: z.number().int() })

export const PageOrderInputSchema = z.object({
  order: z.array(z.number().int()).max(writtenAnswerLimits.pages, writtenAnswerMessages.pageOrder),
})

export const WrittenPageListSchema = z.object({ pages: z.array(WrittenPageSchema) })

/** `GET /api/written-pages/{pageId}/?expires=&signature=[&size=phone]`: a page's image, or its phone rendition. */
export const WrittenPageImageParamsSchema = z.object({ pageId: z.string() })
export const WrittenPageImageQuerySchema = z.object({
  expires: z.string().optional(),
  signature: z.string().optional(),
  size: z.enum(['phone'], { error: writtenAnswerMessages.pageSize }).optional(),
})

// Results.

/** `none`: the paper has no written question; `pending` until every written answer of the attempt is released. */
export const MarkingStateSchema = z.enum(['none', 'pending', 'released'])
export type MarkingState = z.infer<typeof MarkingStateSchema>

/**
 * The attempt's written part, null when its paper has none: `marks` released so far, `max_marks` of every written
 * question, `released` of `total` written questions.
 */
export const WrittenPartSchema = z
  .object({ marks: z.number(), max_marks: z.number(), released: z.number().int(), total: z.number().int() })
  .nullable()
export type WrittenPart = z.infer<typeof WrittenPartSchema>

/** `GET /api/results/{attemptId}/written/{questionId}/`: marks, items, comment, annotations, model answer once released. */
export const WrittenResultSchema = z.object({
  /** `marked` is shown to the learner as `submitted`: a mark is final only once released. */
  status: z.enum(['submitted', 'released']),
  marks: z.number().nullable(),
  max_marks: z.number(),
  /** `id` is the rubric item's: annotations name it (`{k: "item", item_id}`) and a regrade request may (`item_id`). */
  items: z.array(
    z.object({
      id: z.number().int(),
      title: BilingualSchema,
      points: z.number(),
      explanation: BilingualSchema.nullable(),
    }),
  ),
  adjustment: z.number().nullable(),
  comment: BilingualSchema.nullable(),
  pages: z.array(WrittenPageSchema.omit({ number: true }).extend({ annotations: z.unknown().nullable() })),
  text: z.string(),
  word_count: z.number().int(),
  model_answer: RichTextSchema.nullable(),
  /** `open_until`: release plus 7 days; `request`: the answer's latest regrade request. */
  regrade: z.object({ open_until: z.string().nullable(), request: RegradeRequestSchema.nullable() }),
})
export type WrittenResult = z.infer<typeof WrittenResultSchema>
