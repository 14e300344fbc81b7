// The legacy-font tool (API.md "Import": POST /api/admin/tools/legacy-font/, docs/legacy-fonts.md). Names carry
// "Tool" so that they never meet the import's own `legacy_font` option (auto, preeti, kantipur, none).
import { z } from 'zod'
import { adminMessages } from './admin'

export const legacyFontToolLimits = {
  /** Characters of pasted text the tool converts at once. */
  textLength: 100_000,
} as const

export const legacyFontToolMessages = {
  font: 'Choose "preeti" or "kantipur": the legacy fonts we convert.',
} as const

const missing = (issue: { input?: unknown }) =>
  issue.input === undefined ? adminMessages.required : issue.input === null ? adminMessages.notNull : undefined

export const LegacyFontToolFontSchema = z.enum(['preeti', 'kantipur'], {
  error: (issue) => missing(issue) ?? legacyFontToolMessages.font,
})
export type LegacyFontToolFont = z.infer<typeof LegacyFontToolFontSchema>

export const LegacyFontToolRequestSchema = z.object({
  // Not trimmed: the spaces and line breaks of the pasted text are kept as they are.
  text: z
    .string({ error: missing })
    .max(legacyFontToolLimits.textLength, adminMessages.tooLong(legacyFontToolLimits.textLength)),
  font: LegacyFontToolFontSchema,
})
export type LegacyFontToolRequest = z.infer<typeof LegacyFontToolRequestSchema>

export const LegacyFontToolResponseSchema = z.object({ unicode: z.string() })
export type LegacyFontToolResponse = z.infer<typeof LegacyFontToolResponseSchema>
