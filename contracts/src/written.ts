// Request and response schemas of API.md "Written answers marked by rubric": written questions and their rubrics.
import { z } from 'zod'
import { adminInput, adminLimits, ImageInputSchema } from './admin'
import { RankChangeSchema } from './challenges'
import { BilingualSchema, IdSchema } from './common'

const { required, bilingual, optionalText } = adminInput

export const writtenLimits = {
  marks: { min: 0.5, max: 100 },
  wordLimit: { min: 10, max: 5_000 },
  modelAnswerLength: 20_000,
  /** Points, bounds and adjustments are signed and at most this far from 0. */
  points: 100,
  groups: 20,
  items: 100,
  titleLength: 200,
  explanationLength: 2_000,
} as const

export const writtenMessages = {
  type: 'A question is of type choice, multiple, numeric or written.',
  marks: `A written question's marks must be from ${writtenLimits.marks.min} to ${writtenLimits.marks.max}.`,
  decimals: 'At most 2 decimals.',
  wordLimit: `A word limit is a whole number from ${writtenLimits.wordLimit.min} to ${writtenLimits.wordLimit.max}, or null.`,
  noOptions: 'A written question has no options.',
  points: `Points must be from -${writtenLimits.points} to ${writtenLimits.points}.`,
  bound: `A bound must be from -${writtenLimits.points} to ${writtenLimits.points}.`,
  floorAboveCeiling: 'The floor must not be above the ceiling.',
  ceilingAboveMarks: "The ceiling must not be above the question's marks.",
  floorAboveMarks: "The floor must not be above the question's marks.",
  groupCount: `A rubric has at most ${writtenLimits.groups} groups.`,
  itemCount: `A rubric has at most ${writtenLimits.items} items.`,
  repeatedId: 'This id appears twice.',
  unknownItem: "No such item in this question's rubric.",
  unknownGroup: "No such group in this question's rubric.",
  groupBoth: 'Name the group by group_id or group_index, not both.',
  groupIndex: 'No group has this place in groups.',
  notWritten: 'Only a written question has a rubric.',
  rubricChanged: 'The rubric was changed by someone else meanwhile. Reload it and make your change again.',
  exclusiveHeld: 'Marked answers hold two items of this group: it cannot allow only one.',
} as const

const hasAtMostTwoDecimals = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6

/** A signed number of at most 2 decimals within [min, max]. */
const decimal = (min: number, max: number, message: string) =>
  z.number(required).min(min, message).max(max, message).refine(hasAtMostTwoDecimals, writtenMessages.decimals)

export const WrittenMarksSchema = decimal(writtenLimits.marks.min, writtenLimits.marks.max, writtenMessages.marks)
const pointsSchema = decimal(-writtenLimits.points, writtenLimits.points, writtenMessages.points)
const boundSchema = decimal(-writtenLimits.points, writtenLimits.points, writtenMessages.bound)
  .nullish()
  .transform((value) => value ?? null)

const answerText = (max: number) =>
  z
    .object({ en: optionalText(max), ne: optionalText(max) })
    .nullish()
    // Either language is enough; both empty is no model answer.
    .transform((value) => (value && (value.en !== '' || value.ne !== '') ? value : null))

/**
 * The fields a written question has where a choice question has options (API.md): `options` absent, null or empty
 * (anything else is refused at `options`), `marks`, `word_limit`, `model_answer`.
 */
export const writtenQuestionFields = {
  type: z.literal('written'),
  text: bilingual(adminLimits.questionTextLength),
  hint: adminInput.hint,
  topic: optionalText(adminLimits.topicLength),
  image: ImageInputSchema,
  options: z
    .array(z.unknown(), writtenMessages.noOptions)
    .max(0, writtenMessages.noOptions)
    .nullish()
    .transform((): never[] => []),
  marks: WrittenMarksSchema,
  word_limit: z
    .number()
    .int(writtenMessages.wordLimit)
    .min(writtenLimits.wordLimit.min, writtenMessages.wordLimit)
    .max(writtenLimits.wordLimit.max, writtenMessages.wordLimit)
    .nullish()
    .transform((value) => value ?? null),
  model_answer: answerText(writtenLimits.modelAnswerLength),
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * A question body of either type, chosen by its `type` (absent: choice), so a mistake is reported at its own path
 * (`marks`, `options`) rather than as "no branch of a union matched".
 */
export function eitherType<Choice extends z.ZodType, Written extends z.ZodType>(choice: Choice, written: Written) {
  return z.unknown().transform((value, context): z.output<Choice> | z.output<Written> => {
    const schema = isRecord(value) && value.type === 'written' ? written : choice
    const result = schema.safeParse(value)
    if (result.success) return result.data as z.output<Choice> | z.output<Written>
    for (const issue of result.error.issues)
      context.addIssue({ code: 'custom', message: issue.message, path: issue.path as (string | number)[] })
    return z.NEVER
  })
}

// Rubrics.

export const RubricScoringSchema = z.enum(['positive', 'negative'])

const rubricTitle = bilingual(writtenLimits.titleLength)
const explanation = z
  .object({
    en: optionalText(writtenLimits.explanationLength),
    ne: optionalText(writtenLimits.explanationLength),
  })
  .nullish()
  .transform((value) => (value && (value.en !== '' || value.ne !== '') ? value : null))
const rubricId = z.number().int().positive().max(2_147_483_647)

const repeatedIds = (entries: readonly { id?: number | null | undefined }[]) => {
  const seen = new Set<number>()
  return entries.flatMap((entry, index) => {
    if (entry.id === undefined || entry.id === null) return []
    if (seen.has(entry.id)) return [index]
    seen.add(entry.id)
    return []
  })
}

/**
 * `PUT .../rubric/`. An item or group with `id` edits that one, without it is new; one left out is deleted. An item
 * names an existing group by `group_id`, or a group new in this request by `group_index`, its place in `groups`.
 */
export const RubricInputSchema = z
  .object({
    scoring: RubricScoringSchema.default('positive'),
    floor: boundSchema,
    ceiling: boundSchema,
    groups: z
      .array(
        z.object({
          id: rubricId.nullish(),
          title: rubricTitle,
          exclusive: z.boolean(required).default(false),
        }),
        required,
      )
      .max(writtenLimits.groups, writtenMessages.groupCount)
      .default([]),
    items: z
      .array(
        z.object({
          id: rubricId.nullish(),
          group_id: rubricId.nullish(),
          group_index: z.number().int().min(0).nullish(),
          points: pointsSchema,
          title: rubricTitle,
          explanation,
        }),
        required,
      )
      .max(writtenLimits.items, writtenMessages.itemCount)
      .default([]),
    revision: z.number(required).int().min(0),
    dry_run: z.boolean(required).default(false),
  })
  .superRefine((rubric, context) => {
    for (const index of repeatedIds(rubric.groups))
      context.addIssue({ code: 'custom', message: writtenMessages.repeatedId, path: ['groups', index, 'id'] })
    for (const index of repeatedIds(rubric.items))
      context.addIssue({ code: 'custom', message: writtenMessages.repeatedId, path: ['items', index, 'id'] })
    rubric.items.forEach((item, index) => {
      const hasId = item.group_id !== undefined && item.group_id !== null
      const hasIndex = item.group_index !== undefined && item.group_index !== null
      if (hasId && hasIndex)
        context.addIssue({ code: 'custom', message: writtenMessages.groupBoth, path: ['items', index, 'group_index'] })
      else if (hasIndex && item.group_index! >= rubric.groups.length)
        context.addIssue({ code: 'custom', message: writtenMessages.groupIndex, path: ['items', index, 'group_index'] })
    })
    if (rubric.floor !== null && rubric.ceiling !== null && rubric.floor > rubric.ceiling)
      context.addIssue({ code: 'custom', message: writtenMessages.floorAboveCeiling, path: ['floor'] })
  })
export type RubricInput = z.input<typeof RubricInputSchema>

export const RubricGroupSchema = z.object({ id: z.number().int(), title: BilingualSchema, exclusive: z.boolean() })
export const RubricItemSchema = z.object({
  id: z.number().int(),
  group_id: z.number().int().nullable(),
  points: z.number(),
  title: BilingualSchema,
  explanation: BilingualSchema.nullable(),
})

/** A rubric as read; `floor` and `ceiling` are always numbers: 0 and the question's marks when not set. */
export const RubricSchema = z.object({
  question_id: z.number().int(),
  marks: z.number(),
  scoring: RubricScoringSchema,
  floor: z.number(),
  ceiling: z.number(),
  groups: z.array(RubricGroupSchema),
  items: z.array(RubricItemSchema),
  revision: z.number().int(),
})
export type Rubric = z.infer<typeof RubricSchema>

export const RescoredSchema = z.object({
  answers: z.number().int(),
  attempts: z.number().int(),
  learners_notified: z.number().int(),
  rank_changes: z.array(RankChangeSchema),
})
export type Rescored = z.infer<typeof RescoredSchema>

export const RubricResultSchema = z.object({ rubric: RubricSchema, rescored: RescoredSchema })
export type RubricResult = z.infer<typeof RubricResultSchema>

/** `GET /api/admin/bank/questions/{id}/rubric/stats/?quiz_id=`: over marked and released answers of finished attempts. */
export const RubricStatsQuerySchema = z.object({ quiz_id: IdSchema.optional() })
export type RubricStatsQuery = z.input<typeof RubricStatsQuerySchema>

/** `mean` in marks (null with none marked); an item's `share` is the fraction of marked answers it was applied to. */
export const RubricStatsSchema = z.object({
  marked: z.number().int(),
  mean: z.number().nullable(),
  items: z.array(
    z.object({ id: z.number().int(), title: BilingualSchema, applied: z.number().int(), share: z.number().nullable() }),
  ),
})
export type RubricStats = z.infer<typeof RubricStatsSchema>
