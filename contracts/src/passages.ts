// API.md "Question types": bank passages, the questions read under one text (docs/decisions/117).
import { z } from 'zod'
import { adminInput, AdminImageSchema, ImageInputSchema } from './admin'
import { RichTextSchema } from './common'

export const passageLimits = {
  /** A 300-word passage is about 2,000 characters; a long comprehension with a table stays well inside. */
  textLength: 20_000,
  questions: 50,
  searchLength: 200,
  pageSize: { min: 1, max: 500, default: 50 },
} as const

export const passageMessages = {
  notFound: 'Passage not found.',
  inUse: "This passage is in a quiz's paper; remove it from those papers first.",
  inAnotherPassage: 'A question may belong to one passage only; take it out of its other passage first.',
  repeatedQuestion: 'This question is already in the list.',
  unknownQuestion: 'No such question in the bank.',
  tooManyQuestions: `A passage has at most ${passageLimits.questions} questions.`,
  empty: 'This passage has no questions yet.',
  item: 'An item of a passage is a question.',
  inPaperAlready: "This passage's questions are already in the paper.",
  questionInPassage: 'This question belongs to a passage: add the passage, {passage_id}, instead.',
  unreachable: (count: number, sizes: readonly number[]) =>
    sizes.length === 0
      ? `No whole passage matches this draw, so it cannot take ${count} questions.`
      : `Whole passages of this draw's pool (of ${[...new Set(sizes)].sort((a, b) => a - b).join(', ')} questions) cannot make exactly ${count} questions.`,
} as const

const { bilingual, required } = adminInput

/** `POST` and `PUT /api/admin/bank/passages/...`: the text (maths and tables as a question's) and an optional picture. */
export const PassageInputSchema = z.object({
  text: bilingual(passageLimits.textLength),
  image: ImageInputSchema,
})
export type PassageInput = z.input<typeof PassageInputSchema>

export const PassageSchema = z.object({
  id: z.number().int(),
  text: RichTextSchema,
  image: AdminImageSchema,
  question_ids: z.array(z.number().int()),
})
export type Passage = z.infer<typeof PassageSchema>

export const PassageListQuerySchema = z.object({
  search: z.string().trim().max(passageLimits.searchLength).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(passageLimits.pageSize.min)
    .max(passageLimits.pageSize.max)
    .default(passageLimits.pageSize.default),
})
export type PassageListQuery = z.input<typeof PassageListQuerySchema>

export const PassageListSchema = z.object({ count: z.number().int(), results: z.array(PassageSchema) })
export type PassageList = z.infer<typeof PassageListSchema>

const BodyIdSchema = z.number(required).int().positive().max(2_147_483_647)

/** `PUT /api/admin/bank/passages/{id}/questions/`: the passage's questions, in order. */
export const PassageQuestionsBodySchema = z.object({
  question_ids: z
    .array(BodyIdSchema, required)
    .max(passageLimits.questions, passageMessages.tooManyQuestions)
    .superRefine((ids, context) => {
      const seen = new Set<number>()
      ids.forEach((id, index) => {
        if (seen.has(id)) context.addIssue({ code: 'custom', message: passageMessages.repeatedQuestion, path: [index] })
        seen.add(id)
      })
    }),
})
