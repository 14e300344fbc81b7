// Request and response schemas of mistake practice (API.md "Analysis and practice").
import { z } from 'zod'
import { IdSchema, QuestionTypeSchema, RichTextSchema } from './common'
import { NumericKeySchema } from './numeric-key'
import { AnswerMapSchema, QuizImageSchema } from './quizzes'

export const PracticeParamsSchema = z.object({ questionId: IdSchema })

/** A card shows the question's current version, without correct answers or hint. */
export const PracticeCardSchema = z.object({
  question: z.object({
    id: z.number().int(),
    text: RichTextSchema,
    topic: z.string(),
    image: QuizImageSchema,
    /**
     * `multiple` takes a list of option ids, `numeric` a typed number (API.md "Question types"). Always sent; optional
     * in the type so that payloads written before it read as choice.
     */
    type: QuestionTypeSchema.optional(),
    options: z.array(z.object({ id: z.number().int(), text: RichTextSchema, image: QuizImageSchema })),
    /** A numeric question's decimals (null: any); absent for other types. */
    decimals: z.number().int().nullable().optional(),
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

/**
 * A choice question's `{option_id}`, or, for any type, `{answers: {questionId: answer}}` as an autosave sends it: a
 * multiple question's option ids, a numeric question's typed string (API.md "Question types").
 */
export const PracticeAnswerBodySchema = z
  .object({ option_id: z.number().int().positive().max(2_147_483_647).optional(), answers: AnswerMapSchema.optional() })
  .refine((body) => body.option_id !== undefined || body.answers !== undefined, {
    message: 'Send option_id or answers.',
    path: ['option_id'],
  })
export type PracticeAnswerBody = z.infer<typeof PracticeAnswerBodySchema>

export const PracticeAnswerResultSchema = z.object({
  /** Full marks. */
  correct: z.boolean(),
  /** The right option (the one chosen when it is right); a multiple question's first right one; null for numeric. */
  correct_option_id: z.number().int().nullable(),
  /** A multiple question's right set; absent for other types. */
  correct_option_ids: z.array(z.number().int()).optional(),
  /** A numeric question's accepted value and tolerance, or range; absent for other types. */
  answer: NumericKeySchema.optional(),
  hint: RichTextSchema.nullable(),
  /** The card's new box; null when a right answer in box 3 retired it. */
  box: z.number().int().nullable(),
  due_at: z.string().nullable(),
})
export type PracticeAnswerResult = z.infer<typeof PracticeAnswerResultSchema>
