import { z } from 'zod'

/**
 * API.md "Blind learners": a screen reader's user got the paper without its `needs_sight` questions, `left_out` of
 * them, each section's marks rescaled to the questions left; null when nothing was left out.
 */
export const AdaptedPaperSchema = z.object({ left_out: z.number().int().positive() }).nullable()
export type AdaptedPaper = z.infer<typeof AdaptedPaperSchema>
