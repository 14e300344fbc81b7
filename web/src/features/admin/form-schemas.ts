// The admin forms' resolvers: zodResolver over the contracts' request schemas, fed from what the inputs hold
// (text in number and date inputs, rupees, local times), so a form refuses what the server would, in its words.
import { zodResolver } from '@hookform/resolvers/zod'
import {
  AdminTimestampSchema,
  AdminUserPatchSchema,
  adminMessages,
  institutionMessages,
  PlanInputSchema,
  QuestionInputSchema,
  type QuestionInput,
  QuizPatchSchema,
} from '@quiz/contracts'
import type { Resolver } from 'react-hook-form'
import { z } from 'zod'
import { parseRupees } from '../../lib/money'
import { localInputToIso } from './datetime'
import { toQuestionPayload, type QuestionDraft } from './question-draft'

/** The UI's own texts, for what only the UI can get wrong; shown through the same mapping as the contracts'. */
export const uiMessages = {
  invalidJson: 'Invalid JSON format. Please check your data.',
  price: 'Enter a price in rupees, with at most two decimals.',
} as const

const filled = z.string().refine((value) => value.trim() !== '', { message: adminMessages.required, abort: true })

/** A number typed into an input: empty says "required" before the contract's own rule speaks. */
const typedNumber = (schema: z.ZodType<number, number>) => filled.transform(Number).pipe(schema)

/** A datetime-local value as the API's ISO timestamp; a value it cannot read goes on as is, for the contract to refuse. */
const localTime = (value: string) => localInputToIso(value) ?? value

const patch = QuizPatchSchema.shape
export interface DetailsValues {
  title: { en: string; ne: string }
  start_time: string
  end_time: string
  duration_minutes: string
  allowed_attempts: string
  difficulty: 'easy' | 'medium' | 'hard'
  is_paid_tier: boolean
  shuffle_questions: boolean
  shuffle_options: boolean
}
export const detailsResolver = zodResolver(
  z.object({
    title: patch.title.unwrap(),
    start_time: filled.transform(localTime).pipe(AdminTimestampSchema),
    end_time: z
      .string()
      .transform((value) => (value.trim() === '' ? null : localTime(value)))
      .pipe(patch.end_time.unwrap()),
    duration_minutes: typedNumber(patch.duration_minutes.unwrap()),
    allowed_attempts: typedNumber(patch.allowed_attempts.unwrap()),
    difficulty: patch.difficulty.unwrap(),
    is_paid_tier: patch.is_paid_tier.unwrap(),
    shuffle_questions: patch.shuffle_questions.unwrap(),
    shuffle_options: patch.shuffle_options.unwrap(),
  }),
  undefined,
  { raw: true },
) as Resolver<DetailsValues>

/** The question as it would be sent, checked by the contract: its paths are the form's (`options.1.text.en`). */
export const questionResolver = zodResolver(
  z
    .custom<QuestionDraft>()
    .transform((draft): QuestionInput => toQuestionPayload(draft))
    .pipe(QuestionInputSchema),
  undefined,
  { raw: true },
) as Resolver<QuestionDraft>

const plan = PlanInputSchema.shape
export interface PlanValues {
  name: { en: string; ne: string }
  /** Rupees as typed ("1,299.90"); the resolver gives paisa, which the request carries. */
  price: string
  days: string
  active: boolean
}
/** What the plan resolver gives: the price in paisa. */
export interface PlanOutput {
  name: { en: string; ne: string }
  price: number
  days: number
  active: boolean
}
export const planResolver = zodResolver(
  z.object({
    name: plan.name,
    price: filled
      .transform((text, context) => {
        const paisa = parseRupees(text)
        if (paisa === null) context.addIssue({ code: 'custom', message: uiMessages.price })
        return paisa ?? 0
      })
      .pipe(plan.price_paisa),
    days: typedNumber(plan.days),
    active: z.boolean(),
  }),
) as Resolver<PlanValues, unknown, PlanOutput>

export interface LearnerValues {
  has_paid_access: boolean
  /** A date input's value; the request carries the end of that day in the admin's time zone. */
  end_date: string
  extra_time_percent: string
}
export const learnerResolver = zodResolver(
  z.object({
    has_paid_access: z.boolean(),
    end_date: z.string(),
    extra_time_percent: z
      .string()
      .trim()
      .regex(/^\d{1,3}$/, institutionMessages.extraTime)
      .transform(Number)
      .pipe(AdminUserPatchSchema.shape.extra_time_percent.unwrap()),
  }),
  undefined,
  { raw: true },
) as Resolver<LearnerValues>

/**
 * The pasted quiz must be JSON; the quiz itself is checked by the server, whose answer lists every problem by
 * path after sanitising the SVGs and with the clock that decides a default start.
 */
export const createResolver = zodResolver(
  z.object({
    json: z.string().transform((text, context) => {
      try {
        return JSON.parse(text) as unknown
      } catch {
        context.addIssue({ code: 'custom', message: uiMessages.invalidJson })
        return z.NEVER
      }
    }),
  }),
)
