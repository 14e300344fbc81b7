// A written answer's pages and the answer as the learner left it (API.md "Written answers marked by rubric"). Apart
// from written-answers.ts so the attempt's schema (quizzes.ts) takes them without that module's imports.
import { z } from 'zod'

/**
 * A page's `url` is signed and expires (docs/decisions/065): an <img> can load it, a copied one stops working.
 * `phone_url`: the same page at most 720 px wide (`writtenAnswerLimits.phoneWidth`), for a small screen
 * (docs/decisions/078).
 */
export const WrittenPageSchema = z.object({
  id: z.number().int(),
  number: z.number().int(),
  url: z.string(),
  phone_url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
})
export type WrittenPage = z.infer<typeof WrittenPageSchema>

/**
 * A written question's answer as the server holds it while the attempt runs: the exam screen starts from it on any
 * device (docs/decisions/081). Empty text, 0 words and no pages when nothing is saved yet.
 */
export const SavedWrittenAnswerSchema = z.object({
  text: z.string(),
  word_count: z.number().int(),
  pages: z.array(WrittenPageSchema),
})
export type SavedWrittenAnswer = z.infer<typeof SavedWrittenAnswerSchema>
