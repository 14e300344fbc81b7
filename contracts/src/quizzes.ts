// Request and response schemas of the quizzes feature (API.md "Quizzes for learners").
import { z } from 'zod'
import { AdaptedPaperSchema } from './blind-learners'
import { BilingualSchema, DifficultySchema, IdSchema, RichTextSchema } from './common'
import { LiveInfoSchema } from './live'
import { PictureSchema } from './pictures'
import { AttemptSectionSchema, SectionScoreSchema } from './sections'
import { SavedWrittenAnswerSchema } from './written-pages'

/** Path parameters of `/api/quizzes/{id}/question/{n}/`; `n` counts from 1. */
export const QuestionNumberParamsSchema = z.object({ id: IdSchema, n: IdSchema })

/** A question or option image as learners see it while taking a quiz: an SVG drawing or a picture, never both. */
export const QuizImageSchema = z
  .object({ svg: z.string().nullable(), picture: PictureSchema.nullable(), caption: RichTextSchema })
  .nullable()
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

/** A section of the paper as the instructions show it before a start (API.md "Papers"): marks in points. */
export const QuizListSectionSchema = z.object({
  title: BilingualSchema,
  marks_correct: z.number(),
  marks_wrong: z.number(),
  /** Its questions: fixed ones plus what its draws take. */
  count: z.number().int(),
  time_limit_minutes: z.number().int().nullable(),
})
export type QuizListSection = z.infer<typeof QuizListSectionSchema>

export const QuizListItemSchema = QuizSummarySchema.extend({
  has_attempt_in_progress: z.boolean(),
  can_start: z.boolean(),
  start_time: z.string(),
  end_time: z.string().nullable(),
  question_count: z.number().int(),
  sections: z.array(QuizListSectionSchema),
  /** The live schedule and the leaderboard's status, or null for an ordinary quiz (API.md "Live mocks"). */
  live: LiveInfoSchema.nullable(),
  /** Registered for this live mock's reminders; false for an ordinary quiz. */
  registered: z.boolean(),
})
export type QuizListItem = z.infer<typeof QuizListItemSchema>
export const QuizListSchema = z.array(QuizListItemSchema)

/**
 * `{questionId: answer}` of an attempt: JSON object keys are the stable question ids; a choice question's option id,
 * a multiple question's option ids, a numeric question's typed number in its shortest form (API.md "Question types").
 */
export const SavedAnswersSchema = z.record(
  z.string(),
  z.union([z.number().int(), z.array(z.number().int()), z.string()]),
)

export const AttemptInfoSchema = z.object({
  id: z.number().int(),
  started_at: z.string(),
  deadline: z.string(),
  remaining_seconds: z.number().int(),
  /** False for a live mock's practice attempt (after its join window), true otherwise (API.md "Live mocks"). */
  ranked: z.boolean(),
  answers: SavedAnswersSchema,
  /** Questions marked for review, in the attempt's order (API.md "Exam feel"). */
  marked: z.array(z.number().int()),
  /** Questions the learner has been shown, in the attempt's order. */
  visited: z.array(z.number().int()),
  /** `{questionId: seconds}` for the questions with time recorded. */
  time_spent: z.record(z.string(), z.number().int()),
  /** The paper's sections (API.md "Papers"); timed ones are taken in order. */
  sections: z.array(AttemptSectionSchema),
  /** A live mock's attempt from `starts_at`: the key of the paper served ahead (base64url), API.md "Live mocks". */
  paper_key: z.string().optional(),
  /**
   * `{questionId: answer}` for each written question of the paper, as saved so far (typed text, word count, pages),
   * so the exam screen starts from it on any device; absent when the paper has no written question.
   */
  written: z.record(z.string(), SavedWrittenAnswerSchema).optional(),
  /** A screen reader's adapted paper (API.md "Blind learners"); the server always sends it, null when as authored. */
  adapted: AdaptedPaperSchema.optional(),
})
export type AttemptInfo = z.infer<typeof AttemptInfoSchema>

/** `GET /api/quizzes/{id}/`: the quiz with the attempt it started or resumed. */
export const QuizAttemptSchema = QuizSummarySchema.extend({
  question_count: z.number().int(),
  /** `options`: this attempt's option order, with `paper_key` when it shuffles them (a paper ahead is in authored order). */
  questions: z.array(z.object({ id: z.number().int(), options: z.array(z.number().int()).optional() })),
  attempt: AttemptInfoSchema,
})
export type QuizAttempt = z.infer<typeof QuizAttemptSchema>

/** One question of an attempt. Deliberately without `is_correct` and `hint`: the serializer strips anything else. */
/** A bank passage as a learner reads it above each of its questions (API.md "Question types"). */
export const LearnerPassageSchema = z.object({ id: z.number().int(), text: RichTextSchema, image: QuizImageSchema })
export type LearnerPassage = z.infer<typeof LearnerPassageSchema>

export const QuizQuestionSchema = z.object({
  id: z.number().int(),
  number: z.number().int(),
  /**
   * `choice`, `multiple` (several options may be chosen; how many are right is not said), `numeric` (a typed number,
   * no options) or `written` (no options; API.md "Question types" and "Written answers marked by rubric").
   */
  type: z.enum(['choice', 'multiple', 'numeric', 'written']),
  text: RichTextSchema,
  topic: z.string(),
  image: QuizImageSchema,
  options: z.array(z.object({ id: z.number().int(), text: RichTextSchema, image: QuizImageSchema })),
  /** A written question's own marks and word limit; null for a choice question. */
  marks: z.number().nullable(),
  word_limit: z.number().int().nullable(),
  /** A numeric question's decimals a typed answer may have (null: any); absent on the other types. */
  decimals: z.number().int().nullable().optional(),
  /** The passage it is read under, or null. */
  passage: LearnerPassageSchema.nullable(),
})
export type QuizQuestion = z.infer<typeof QuizQuestionSchema>

/**
 * `GET .../question/{n}/?passages_held=3,7`: the passages the device holds for this attempt (decision 130). A
 * question under one of them carries `passage: {id}` alone, so a paper fetched question by question sends each
 * passage once; without the parameter every question carries its passage whole, as API.md says.
 */
export const QuestionQuerySchema = z.object({
  passages_held: z
    .string()
    .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9}){0,99}$/, 'passages_held lists at most 100 passage ids, separated by commas.')
    .transform((value) => new Set(value.split(',').map(Number)))
    .optional(),
})

/** A question as the question route sends it: its passage by id alone when the device said it holds it. */
export const FetchedQuestionSchema = QuizQuestionSchema.extend({
  passage: LearnerPassageSchema.partial({ text: true, image: true }).nullable(),
})
export type FetchedQuestion = z.infer<typeof FetchedQuestionSchema>

const QuestionKeySchema = z.string().regex(/^[1-9]\d{0,9}$/, 'Question ids are positive integers.')
/** Ids inside JSON bodies are numbers, never coerced from strings. */
const BodyIdSchema = z.number().int().positive().max(2_147_483_647)

/** At most this many characters of a typed number are read (the number rule refuses longer ones anyway). */
const MAX_TYPED_ANSWER = 64

/**
 * `{questionId: answer | null}`: a choice question's option id, a multiple question's option ids, a numeric
 * question's typed string (API.md "Question types"); null or `[]` marks the question unanswered. Whether the answer
 * fits its question's type is the server's check, which knows the paper.
 */
export const AnswerMapSchema = z.record(
  QuestionKeySchema,
  z.union([BodyIdSchema, z.array(BodyIdSchema).max(10), z.string().max(MAX_TYPED_ANSWER)]).nullable(),
)
export type AnswerMap = z.infer<typeof AnswerMapSchema>

/** Seconds on one question in one report; a day bounds any sane report (the server caps the total anyway). */
export const MAX_REPORTED_SECONDS = 86_400

/**
 * What the exam screen reports besides answers (API.md "Exam feel"): marks are merged like answers, visits and
 * seconds are added. Every field is optional, and so are the answers when any of these is sent.
 */
export const ExamStateInputSchema = z.object({
  marked: z.record(QuestionKeySchema, z.boolean()).optional(),
  visited: z.array(BodyIdSchema).max(1_000).optional(),
  time_spent: z
    .record(
      QuestionKeySchema,
      z
        .number()
        .int('Seconds are whole numbers.')
        .min(0, 'Seconds cannot be negative.')
        .max(MAX_REPORTED_SECONDS, 'Too many seconds for one report.'),
    )
    .optional(),
})
export type ExamStateInput = z.infer<typeof ExamStateInputSchema>

/** An autosave carries answers, or marks, visits or seconds without them; an empty body is a client bug (400). */
export const SaveAnswersBodySchema = ExamStateInputSchema.extend({ answers: AnswerMapSchema.optional() }).refine(
  (body) =>
    body.answers !== undefined ||
    body.marked !== undefined ||
    body.visited !== undefined ||
    body.time_spent !== undefined,
  { message: 'Send answers, marked, visited or time_spent.', path: ['answers'] },
)
export type SaveAnswersBody = z.infer<typeof SaveAnswersBodySchema>

/**
 * `saved` counts the answers of the request that were stored (cleared ones included); `dropped` (papers with timed
 * sections) lists the questions whose answers, marks or times were not stored because their section is closed or
 * not yet open.
 */
export const SaveAnswersResultSchema = z.object({
  saved: z.number().int(),
  dropped: z.array(z.number().int()).optional(),
})
export type SaveAnswersResult = z.infer<typeof SaveAnswersResultSchema>

export const SubmitAttemptBodySchema = ExamStateInputSchema.extend({
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
  /** False for a live mock's practice attempt, true otherwise, as on the attempt it finished (API.md "Live mocks"). */
  ranked: z.boolean(),
  /** The sum of the paper's marks for right answers. */
  max_score: z.number(),
  /** Empty while a live mock's key is withheld: a section's tally tells which of its answers were right. */
  sections: z.array(SectionScoreSchema),
})
export type SubmitResult = z.infer<typeof SubmitResultSchema>

/** What a live mock's encrypted paper holds: every question as the question route gives it (no `number`), pictures as `data:` URLs. */
export const LivePaperContentSchema = z.object({
  quiz_id: z.number().int(),
  /** Each passage once; its questions name it by `passage_id` (API.md "Question types"). */
  passages: z.array(LearnerPassageSchema),
  questions: z.array(
    QuizQuestionSchema.omit({ number: true, passage: true }).extend({ passage_id: z.number().int().nullable() }),
  ),
})
export type LivePaperContent = z.infer<typeof LivePaperContentSchema>
