// Regrade requests of API.md "Written answers marked by rubric" (docs/decisions/071): a learner asks within 7 days of
// release, an admin or the question's marker accepts or rejects, and an accepted request is settled by marking again.
import { z } from 'zod'
import { BilingualSchema, IdSchema, IsoDateTimeSchema } from './common'
import { PageQuerySchema } from './institutions'

export const regradeLimits = {
  /** After the answer's release. */
  days: 7,
  messageLength: 2_000,
  responseLength: 2_000,
  pageSize: 50,
} as const

export const regradeMessages = {
  notReleased: 'This answer’s marks are not released yet: ask for a regrade once they are.',
  closed: `Regrades may be asked within ${regradeLimits.days} days of the marks’ release.`,
  alreadyOpen: 'This answer already has a regrade request waiting for a decision.',
  decided: 'This regrade request has already been decided.',
  unknownItem: 'Name one of the rubric items your answer shows, or none.',
  messageRequired: 'Say what should be looked at again.',
  messageLength: `A message is at most ${regradeLimits.messageLength.toLocaleString('en')} characters.`,
  responseRequired: 'Write a response: the learner reads it.',
  responseLength: `A response is at most ${regradeLimits.responseLength.toLocaleString('en')} characters.`,
  notFound: 'Regrade request not found.',
} as const

const BodyIdSchema = z.number().int().positive().max(2_147_483_647)

/** `POST /api/results/{attemptId}/written/{questionId}/regrade/`. */
export const RegradeRequestInputSchema = z.object({
  message: z
    .string()
    .trim()
    .min(1, regradeMessages.messageRequired)
    .max(regradeLimits.messageLength, regradeMessages.messageLength),
  item_id: BodyIdSchema.nullish().transform((value) => value ?? null),
})
export type RegradeRequestInput = z.input<typeof RegradeRequestInputSchema>

/**
 * `open` waits for a decision; `accepted` waits to be settled by marking the answer again (`settled_at`, with the
 * marks before and after); `rejected` is closed with the response.
 */
export const RegradeStatusSchema = z.enum(['open', 'accepted', 'rejected'])
export type RegradeStatus = z.infer<typeof RegradeStatusSchema>

/** A request as its learner sees it (the written result's `regrade.request`, the POST's answer). */
export const RegradeRequestSchema = z.object({
  id: z.number().int(),
  status: RegradeStatusSchema,
  message: z.string(),
  item_id: z.number().int().nullable(),
  response: z.string().nullable(),
  created_at: IsoDateTimeSchema,
  decided_at: IsoDateTimeSchema.nullable(),
  settled_at: IsoDateTimeSchema.nullable(),
  /** The answer's marks before and after the second marking, once settled. */
  old_marks: z.number().nullable(),
  new_marks: z.number().nullable(),
})
export type RegradeRequest = z.infer<typeof RegradeRequestSchema>

export const RegradeQueueQuerySchema = z.object({
  status: RegradeStatusSchema.default('open'),
  quiz_id: IdSchema.optional(),
  page: PageQuerySchema,
})
export type RegradeQueueQuery = z.input<typeof RegradeQueueQuerySchema>

/** A request as admins and markers see it: the answer by its anonymous code, never the learner. */
export const RegradeQueueEntrySchema = RegradeRequestSchema.extend({
  answer_id: z.number().int(),
  anonymous_code: z.string(),
  quiz: z.object({ id: z.number().int(), title: BilingualSchema }),
  question_id: z.number().int(),
  item: z.object({ id: z.number().int(), title: BilingualSchema }).nullable(),
  /** The answer's marks now, and its question's. */
  marks: z.number().nullable(),
  max_marks: z.number(),
})
export type RegradeQueueEntry = z.infer<typeof RegradeQueueEntrySchema>

export const RegradeQueueSchema = z.object({
  count: z.number().int(),
  page_size: z.number().int(),
  results: z.array(RegradeQueueEntrySchema),
})
export type RegradeQueue = z.infer<typeof RegradeQueueSchema>

/** `PATCH /api/admin/regrades/{id}/`. */
export const RegradeDecisionInputSchema = z.object({
  status: z.enum(['accepted', 'rejected']),
  response: z
    .string()
    .trim()
    .min(1, regradeMessages.responseRequired)
    .max(regradeLimits.responseLength, regradeMessages.responseLength),
})
export type RegradeDecisionInput = z.input<typeof RegradeDecisionInputSchema>
