// Request and response schemas of the results feature (API.md "Results").
import { z } from 'zod'
import { AdaptedPaperSchema } from './blind-learners'
import { FlagSchema, RegradeSchema } from './challenges'
import { BilingualSchema, QuestionTypeSchema, RichTextSchema } from './common'
import { NumericKeySchema } from './numeric-key'
import { PictureSchema } from './pictures'
import { SectionScoreSchema } from './sections'
import { AttemptModeSchema } from './sittings'
import { MarkingStateSchema, WrittenPartSchema } from './written-answers'

export const AttemptIdParamsSchema = z.object({ attemptId: z.coerce.number().int().positive().max(2_147_483_647) })

export const ResultAttemptSchema = z.object({
  id: z.number().int(),
  attempt_number: z.number().int(),
  score: z.number(),
  completed_timestamp: z.string(),
  /** False for a live mock's practice attempt (after its join window): left out of ranks (API.md "Live mocks"). */
  ranked: z.boolean(),
  /** 'paper': recorded from an answer sheet of a paper sitting (API.md "Paper sittings"). */
  mode: AttemptModeSchema,
  /** `none` without written questions; `score` holds the written marks released so far. */
  marking: MarkingStateSchema,
  written: WrittenPartSchema,
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
export const ReportImageSchema = z
  .object({ svg_content: z.string().nullable(), picture: PictureSchema.nullable(), caption: RichTextSchema })
  .nullable()
export type ReportImage = z.infer<typeof ReportImageSchema>

export const ReportQuestionSchema = z.object({
  id: z.number().int(),
  text: RichTextSchema,
  hint: RichTextSchema.nullable(),
  topic: z.string(),
  image: ReportImageSchema,
  /**
   * API.md "Question types": a multiple question's right set is its options marked `is_correct`. The server always
   * sends it; optional in the type so that payloads written before it (the web app's fixtures) still read as choice.
   */
  type: QuestionTypeSchema.optional(),
  options: z.array(
    z.object({ id: z.number().int(), text: RichTextSchema, is_correct: z.boolean(), image: ReportImageSchema }),
  ),
  /** A numeric question's accepted value and tolerance, or range (null while the key is withheld); others: absent. */
  answer: NumericKeySchema.nullable().optional(),
  /**
   * The reading passage the question comes under, as the exam showed it (WEB.md "Question types on the screens":
   * review and report show the same); null for others. Optional in the type for payloads written before it.
   */
  passage: z.object({ id: z.number().int(), text: RichTextSchema, image: ReportImageSchema }).nullable().optional(),
})
export type ReportQuestion = z.infer<typeof ReportQuestionSchema>

/** A topic's tally on one report card; `topic` is null for questions without a topic. */
export const TopicAnalysisSchema = z.object({
  topic: z.string().nullable(),
  correct: z.number().int(),
  incorrect: z.number().int(),
  unanswered: z.number().int(),
  score: z.number(),
})
export type TopicAnalysis = z.infer<typeof TopicAnalysisSchema>

/** API.md "Analysis and practice": where this attempt stands against every learner's first finished attempt. */
export const ReportAnalysisSchema = z.object({
  topics: z.array(TopicAnalysisSchema),
  negative_marks: z.number(),
  participants: z.number().int(),
  rank: z.number().int(),
  percentile: z.number(),
  average_score: z.number(),
  highest_score: z.number(),
})
export type ReportAnalysis = z.infer<typeof ReportAnalysisSchema>

export const ReportAnswerSchema = z.object({
  question: z.number().int(),
  selected_option: z.number().int().nullable(),
  /** A multiple question's chosen options (null when unanswered); absent for other types. */
  selected_option_ids: z.array(z.number().int()).nullable().optional(),
  /** A numeric question's typed number in its shortest form (null when unanswered); absent for other types. */
  value: z.string().nullable().optional(),
  /**
   * The marks gained, signed, exact to 2 decimals; null for a written question and while the key is withheld. The
   * server always sends it (optional in the type, as `type` of a question).
   */
  marks: z.number().nullable().optional(),
  marked: z.boolean(),
  time_spent_seconds: z.number().int(),
  /** The learner's flag on this question, or null. */
  flag: FlagSchema.nullable(),
  /** Set once a key decision changed this question's marks in this attempt. */
  regrade: RegradeSchema.nullable(),
})
export type ReportAnswer = z.infer<typeof ReportAnswerSchema>

export const ReportCardSchema = z.object({
  id: z.number().int(),
  attempt_number: z.number().int(),
  quiz: z.object({ id: z.number().int(), title: BilingualSchema, live: z.boolean() }),
  /** False for a live mock's practice attempt: its analysis ranks it among the ranked attempts without counting it. */
  ranked: z.boolean(),
  /** 'paper': read from an answer sheet, so no review marks and no seconds per question (docs/decisions/056). */
  mode: AttemptModeSchema,
  /** The choice part plus the released written marks. */
  score: z.number(),
  /** `none` without written questions; `pending` until every written answer is released, unranked meanwhile. */
  marking: MarkingStateSchema,
  written: WrittenPartSchema,
  /** Full marks. */
  correct: z.number().int(),
  /** Any other answered question, the partial ones included. */
  incorrect: z.number().int(),
  unanswered: z.number().int(),
  /** Multiple answers gaining more than 0 and less than full marks (counted in `incorrect` too); always sent. */
  partial: z.number().int().optional(),
  completed_timestamp: z.string(),
  /** Until when a question of this attempt may be flagged (the quiz's current `challenge_days` after it ended). */
  challenge_closes_at: z.string(),
  /**
   * Why this attempt's key is withheld, or null once it is out: `live`, a live mock until its last ranked deadline
   * plus grace; `unpublished`, a paper sitting of a quiz not yet published; `paid_access`, a paper sitting of a
   * paid-tier quiz for a learner without paid access; `written_uploads`, an online attempt with written questions while
   * its pages are still taken (submission, or the deadline if sooner, plus the upload grace). Meanwhile every `is_correct` is false, hints and regrades are
   * null, and `analysis.topics` and `sections` are empty.
   */
  key_withheld: z.enum(['live', 'unpublished', 'paid_access', 'written_uploads']).nullable(),
  /** Until when a live mock's key, or a written attempt's while pages are taken, is withheld; null otherwise. */
  key_withheld_until: z.string().nullable(),
  questions: z.array(ReportQuestionSchema),
  /** One entry per question, in the order of `questions`; `selected_option` is null when unanswered. */
  answers: z.array(ReportAnswerSchema),
  analysis: ReportAnalysisSchema,
  /** The sum of the paper's marks for right answers. */
  /** Per question: the learner's seconds beside the top 10 %'s median (null under 10 ranked attempts). */
  time_vs_top: z.array(
    z.object({ question_id: z.number().int(), seconds: z.number().int(), top_seconds: z.number().nullable() }),
  ),
  max_score: z.number(),
  sections: z.array(SectionScoreSchema),
  /** A screen reader's adapted paper (API.md "Blind learners"); the server always sends it, null when as authored. */
  adapted: AdaptedPaperSchema.optional(),
})
export type ReportCard = z.infer<typeof ReportCardSchema>

export const ProgressSchema = z.object({
  /** Every finished attempt of the learner, oldest first. */
  attempts: z.array(
    z.object({
      attempt_id: z.number().int(),
      quiz: z.object({ id: z.number().int(), title: BilingualSchema }),
      score: z.number(),
      /** The sum of the paper's marks for right answers: the chart shows score as a share of it. */
      max_score: z.number(),
      total_questions: z.number().int(),
      correct: z.number().int(),
      incorrect: z.number().int(),
      unanswered: z.number().int(),
      completed_timestamp: z.string(),
      mode: AttemptModeSchema,
    }),
  ),
  /** Totals per topic over all those attempts, sorted by name, null last. */
  topics: z.array(
    z.object({
      topic: z.string().nullable(),
      correct: z.number().int(),
      incorrect: z.number().int(),
      unanswered: z.number().int(),
    }),
  ),
})
export type Progress = z.infer<typeof ProgressSchema>
