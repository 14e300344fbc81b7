// A paper's sections in learner payloads (API.md "Papers"): the attempt's, the submit result's and the report card's,
// written once here for the quizzes, results and papers contracts.
import { z } from 'zod'
import { BilingualSchema } from './common'

/** A section of an attempt; `first` is the 1-based number of its first question in the attempt's `questions`. */
export const AttemptSectionSchema = z.object({
  title: BilingualSchema,
  marks_correct: z.number(),
  marks_wrong: z.number(),
  first: z.number().int(),
  count: z.number().int(),
  time_limit_minutes: z.number().int().nullable(),
  deadline: z.string().nullable(),
  closed: z.boolean(),
})
export type AttemptSection = z.infer<typeof AttemptSectionSchema>

/** A section's tally on the submit result and the report card. */
export const SectionScoreSchema = z.object({
  title: BilingualSchema,
  score: z.number(),
  max_score: z.number(),
  correct: z.number().int(),
  incorrect: z.number().int(),
  unanswered: z.number().int(),
})
export type SectionScore = z.infer<typeof SectionScoreSchema>
