// The daily set and the streak (API.md "A daily set and a streak", docs/decisions/110).
import { z } from 'zod'
import { MarksCorrectSchema, MarksWrongSchema } from './papers'

export const dailyLimits = { count: { min: 5, max: 20 }, minutes: { min: 1, max: 30 }, listDays: 92 } as const

export const dailyMessages = {
  publishAt: 'Send a time as HH:MM (Nepal time).',
  count: `Choose between ${dailyLimits.count.min} and ${dailyLimits.count.max} questions.`,
  minutes: `Choose between ${dailyLimits.minutes.min} and ${dailyLimits.minutes.max} minutes.`,
  date: 'Send a date as YYYY-MM-DD.',
  questionCount: 'Choose exactly as many questions as the daily set has.',
  unknownQuestion: 'Not a question of your bank.',
  repeated: 'A question is named twice.',
  dayOver: 'This day is over.',
  dayPublished: 'This day’s set is already published.',
  range: `Ask for at most ${dailyLimits.listDays} days, "from" not after "to".`,
  notEnabled: 'The daily set is not set up.',
  noDay: 'No daily set on this day.',
} as const

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, dailyMessages.publishAt)
export const DailyDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, dailyMessages.date)

const words = z.array(z.string().trim().min(1).max(100)).max(50)

export const DailySettingsSchema = z.object({
  enabled: z.boolean(),
  topics: z.array(z.string()),
  tags: z.array(z.string()),
  count: z.number().int(),
  duration_minutes: z.number().int(),
  marks_correct: z.number(),
  marks_wrong: z.number(),
  publish_at: z.string(),
})
export type DailySettings = z.infer<typeof DailySettingsSchema>

export const DailySettingsBodySchema = z.object({
  enabled: z.boolean().default(false),
  topics: words.default([]),
  tags: words.default([]),
  count: z
    .number()
    .int()
    .min(dailyLimits.count.min, dailyMessages.count)
    .max(dailyLimits.count.max, dailyMessages.count),
  duration_minutes: z
    .number()
    .int()
    .min(dailyLimits.minutes.min, dailyMessages.minutes)
    .max(dailyLimits.minutes.max, dailyMessages.minutes),
  marks_correct: MarksCorrectSchema.default(1),
  marks_wrong: MarksWrongSchema.default(0.2),
  publish_at: hhmm.default('05:00'),
})
export type DailySettingsBody = z.infer<typeof DailySettingsBodySchema>

export const DailyDayParamsSchema = z.object({ date: DailyDateSchema })
export const DailyDayBodySchema = z.object({ question_ids: z.array(z.number().int().positive()).max(100) })
export const DailyDaysQuerySchema = z.object({ from: DailyDateSchema, to: DailyDateSchema })

export const DailyDaySchema = z.object({
  date: z.object({ ad: z.string(), bs: z.string().nullable() }),
  published: z.boolean(),
  fixed: z.boolean(),
  quiz_id: z.number().int().nullable(),
  questions: z.array(z.object({ id: z.number().int(), text: z.string(), topic: z.string().nullable() })),
  attempts: z.number().int(),
  mean: z.number().nullable(),
})
export type DailyDay = z.infer<typeof DailyDaySchema>
export const DailyDaysSchema = z.array(DailyDaySchema)

export const StreakSchema = z.object({
  current: z.number().int(),
  best: z.number().int(),
  freezes_left: z.number().int(),
  today_done: z.boolean(),
})
export type Streak = z.infer<typeof StreakSchema>

export const DailyTodaySchema = z.object({
  date: z.object({ ad: z.string(), bs: z.string().nullable() }),
  quiz_id: z.number().int().nullable(),
  published: z.boolean(),
  /** Shown on the card before the start. */
  question_count: z.number().int().nullable(),
  duration_minutes: z.number().int().nullable(),
  attempted: z.object({ attempt_id: z.number().int(), score: z.number(), max_score: z.number() }).nullable(),
  streak: StreakSchema,
})
export type DailyToday = z.infer<typeof DailyTodaySchema>
