// Request and response schemas of the results feature (API.md "Results").
import { z } from 'zod'
import { BilingualSchema } from './common'

export const AttemptIdParamsSchema = z.object({ attemptId: z.coerce.number().int().positive().max(2_147_483_647) })

export const ResultAttemptSchema = z.object({
  id: z.number().int(),
  attempt_number: z.number().int(),
  score: z.number(),
  completed_timestamp: z.string(),
})
export type ResultAttempt = z.infer<typeof ResultAttemptSchema>

export const QuizResultsSchema = z.object({
  id: z.number().int(),
  title: BilingualSchema,
  attempts: z.array(ResultAttemptSchema),
})
export type QuizResults = z.infer<typeof QuizResultsSchema>
export const ResultListSchema = z.array(QuizResultsSchema)

/** Report cards name the SVG field `svg_content` (SPEC.md). */
export const ReportImageSchema = z.object({ svg_content: z.string(), caption: BilingualSchema }).nullable()
export type ReportImage = z.infer<typeof ReportImageSchema>

export const ReportQuestionSchema = z.object({
  id: z.number().int(),
  text: BilingualSchema,
  hint: BilingualSchema.nullable(),
  topic: z.string(),
  image: ReportImageSchema,
  options: z.array(
    z.object({ id: z.number().int(), text: BilingualSchema, is_correct: z.boolean(), image: ReportImageSchema }),
  ),
})
export type ReportQuestion = z.infer<typeof ReportQuestionSchema>

export const ReportCardSchema = z.object({
  id: z.number().int(),
  attempt_number: z.number().int(),
  quiz: z.object({ id: z.number().int(), title: BilingualSchema }),
  score: z.number(),
  correct: z.number().int(),
  incorrect: z.number().int(),
  unanswered: z.number().int(),
  completed_timestamp: z.string(),
  questions: z.array(ReportQuestionSchema),
  /** One entry per question, in the order of `questions`; `selected_option` is null when unanswered. */
  answers: z.array(z.object({ question: z.number().int(), selected_option: z.number().int().nullable() })),
})
export type ReportCard = z.infer<typeof ReportCardSchema>
