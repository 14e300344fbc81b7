// Request and response schemas of mistake practice (API.md "Analysis and practice").
import { z } from 'zod'
import { IdSchema, RichTextSchema } from './common'
import { QuizImageSchema } from './quizzes'

export const PracticeParamsSchema = z.object({ questionId: IdSchema })

/** A card shows the question's current version, without correct answers or hint. */
export const PracticeCardSchema = z.object({
  question: z.object({
    id: z.number().int(),
    text: RichTextSchema,
    topic: z.string(),
    image: QuizImageSchema,
    options: z.array(z.object({ id: z.number().int(), text: RichTextSchema, image: QuizImageSchema })),
  }),
  box: z.number().int().min(1).max(3),
})
export type PracticeCard = z.infer<typeof PracticeCardSchema>

export const PracticeDeckSchema = z.object({
  due: z.number().int(),
  total: z.number().int(),
  /** Up to 20 due cards, longest-waiting first. */
  cards: z.array(PracticeCardSchema),
  /** When the next card not yet due becomes due (null when none waits): the empty deck's "next card" date. */
  next_due_at: z.string().nullable(),
})
export type PracticeDeck = z.infer<typeof PracticeDeckSchema>

export const PracticeAnswerBodySchema = z.object({ option_id: z.number().int().positive().max(2_147_483_647) })
export type PracticeAnswerBody = z.infer<typeof PracticeAnswerBodySchema>

export const PracticeAnswerResultSchema = z.object({
  correct: z.boolean(),
  correct_option_id: z.number().int(),
  hint: RichTextSchema.nullable(),
  /** The card's new box; null when a right answer in box 3 retired it. */
  box: z.number().int().nullable(),
  due_at: z.string().nullable(),
})
export type PracticeAnswerResult = z.infer<typeof PracticeAnswerResultSchema>
