// Request and response schemas of the quizzes feature (API.md "Quizzes for learners").
import { z } from 'zod'
import { BilingualSchema, DifficultySchema, IdSchema } from './common'

/** Path parameters of `/api/quizzes/{id}/question/{n}/`; `n` counts from 1. */
export const QuestionNumberParamsSchema = z.object({ id: IdSchema, n: IdSchema })

/** A question or option image as learners see it while taking a quiz. */
export const QuizImageSchema = z.object({ svg: z.string(), caption: BilingualSchema }).nullable()
export type QuizImage = z.infer<typeof QuizImageSchema>

/** What every learner view of a quiz starts with: the list and `GET /api/quizzes/{id}/`. */
const QuizSummarySchema = z.object({
  id: z.number().int(),
  title: BilingualSchema,
  duration_minutes: z.number().int(),
  difficulty: DifficultySchema,
  is_paid_tier: z.boolean(),
  allowed_attempts: z.number().int(),
  remaining_attempts: z.number().int(),
})

export const QuizListItemSchema = QuizSummarySchema.extend({
  has_attempt_in_progress: z.boolean(),
  can_start: z.boolean(),
  start_time: z.string(),
  end_time: z.string().nullable(),
  question_count: z.number().int(),
})
export type QuizListItem = z.infer<typeof QuizListItemSchema>
export const QuizListSchema = z.array(QuizListItemSchema)

/** `{questionId: optionId}` of an attempt: JSON object keys are the stable question ids. */
export const SavedAnswersSchema = z.record(z.string(), z.number().int())

export const AttemptInfoSchema = z.object({
  id: z.number().int(),
  started_at: z.string(),
  deadline: z.string(),
  remaining_seconds: z.number().int(),
  answers: SavedAnswersSchema,
})

/** `GET /api/quizzes/{id}/`: the quiz with the attempt it started or resumed. */
export const QuizAttemptSchema = QuizSummarySchema.extend({
  question_count: z.number().int(),
  questions: z.array(z.object({ id: z.number().int() })),
  attempt: AttemptInfoSchema,
})
export type QuizAttempt = z.infer<typeof QuizAttemptSchema>

/** One question of an attempt. Deliberately without `is_correct` and `hint`: the serializer strips anything else. */
export const QuizQuestionSchema = z.object({
  id: z.number().int(),
  number: z.number().int(),
  text: BilingualSchema,
  topic: z.string(),
  image: QuizImageSchema,
  options: z.array(z.object({ id: z.number().int(), text: BilingualSchema, image: QuizImageSchema })),
})
export type QuizQuestion = z.infer<typeof QuizQuestionSchema>

const QuestionKeySchema = z.string().regex(/^[1-9]\d{0,9}$/, 'Question ids are positive integers.')
/** Ids inside JSON bodies are numbers, never coerced from strings. */
const BodyIdSchema = z.number().int().positive().max(2_147_483_647)

/** `{questionId: optionId | null}`; null marks the question unanswered. */
export const AnswerMapSchema = z.record(QuestionKeySchema, BodyIdSchema.nullable())
export type AnswerMap = z.infer<typeof AnswerMapSchema>

export const SaveAnswersBodySchema = z.object({ answers: AnswerMapSchema })
export type SaveAnswersBody = z.infer<typeof SaveAnswersBodySchema>

/** `saved` counts the answers of the request that were stored (cleared ones included). */
export const SaveAnswersResultSchema = z.object({ saved: z.number().int() })
export type SaveAnswersResult = z.infer<typeof SaveAnswersResultSchema>

export const SubmitAttemptBodySchema = z.object({
  answers: AnswerMapSchema.default({}),
  attempt_id: BodyIdSchema.nullish(),
})
export type SubmitAttemptBody = z.infer<typeof SubmitAttemptBodySchema>

export const SubmitResultSchema = z.object({
  attempt_id: z.number().int(),
  /** Exact to 2 decimals (computed in hundredths), may be negative. */
  score: z.number(),
  correct: z.number().int(),
  incorrect: z.number().int(),
  unanswered: z.number().int(),
  total_questions: z.number().int(),
  completed_timestamp: z.string(),
  late: z.boolean(),
})
export type SubmitResult = z.infer<typeof SubmitResultSchema>
