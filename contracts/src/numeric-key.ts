// A numeric question's key in payloads (API.md "Question types"), apart from question-types.ts so that admin.ts's
// payload schemas can name it without a cycle of imports.
import { z } from 'zod'

export const NumericKeySchema = z.union([
  z.object({ value: z.number(), tolerance: z.number() }),
  z.object({ min: z.number(), max: z.number() }),
])
export type NumericKeyOutput = z.infer<typeof NumericKeySchema>

/** The fields a question payload carries for numeric questions: its key and decimals, null for other types. */
export const numericFields = { answer: NumericKeySchema.nullable(), decimals: z.number().int().nullable() }
