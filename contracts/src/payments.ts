// Request and response schemas of paid access (API.md "Paid access: plans and payments").
import { z } from 'zod'
import { BilingualSchema, bilingualInput, IsoDateTimeSchema } from './common'

export const planLimits = {
  nameLength: 200,
  /** Rs 10: below that the wallets' fees make no sense. */
  minPricePaisa: 1000,
  /** Rs 10 lakh: a typo guard, far above any plan. */
  maxPricePaisa: 100_000_000,
  days: { min: 1, max: 3660 },
} as const

export const PlanSchema = z.object({
  id: z.number().int(),
  name: BilingualSchema,
  price_paisa: z.number().int(),
  days: z.number().int(),
  active: z.boolean(),
})
export type Plan = z.infer<typeof PlanSchema>
export const PlanListSchema = z.array(PlanSchema)

export const planMessages = {
  wholePaisa: 'Enter the price in whole paisa.',
  minPrice: 'The price must be at least Rs 10 (1000 paisa).',
  wholeDays: 'Enter a whole number of days.',
  days: `A plan lasts ${planLimits.days.min} to ${planLimits.days.max} days.`,
} as const

const pricePaisa = z
  .number()
  .int(planMessages.wholePaisa)
  .min(planLimits.minPricePaisa, planMessages.minPrice)
  .max(planLimits.maxPricePaisa)
const days = z
  .number()
  .int(planMessages.wholeDays)
  .min(planLimits.days.min, planMessages.days)
  .max(planLimits.days.max, planMessages.days)

export const PlanInputSchema = z.object({
  name: bilingualInput(planLimits.nameLength),
  price_paisa: pricePaisa,
  days,
  active: z.boolean().default(true),
})
export type PlanInput = z.input<typeof PlanInputSchema>

export const PlanPatchSchema = z
  .object({ name: bilingualInput(planLimits.nameLength), price_paisa: pricePaisa, days, active: z.boolean() })
  .partial()
export type PlanPatch = z.input<typeof PlanPatchSchema>

export const PaymentProviderSchema = z.enum(['khalti', 'esewa', 'fake'])
export type PaymentProvider = z.infer<typeof PaymentProviderSchema>
export const PaymentProviderListSchema = z.array(PaymentProviderSchema)

export const PaymentStatusSchema = z.enum(['pending', 'completed', 'failed'])
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>

/**
 * Why a payment failed, for the learner's page: `canceled` (the learner or the provider canceled it),
 * `expired`, `refunded`, `not_found` (the provider never saw it), `mismatch` (the provider's answer named
 * another amount or transaction), `initiate_failed` (the provider could not be reached to start it).
 */
export const PaymentFailureSchema = z.enum([
  'canceled',
  'expired',
  'refunded',
  'not_found',
  'mismatch',
  'initiate_failed',
])
export type PaymentFailure = z.infer<typeof PaymentFailureSchema>

export const CreatePaymentBodySchema = z.object({
  plan_id: z.number().int().positive(),
  provider: PaymentProviderSchema,
})
export type CreatePaymentBody = z.infer<typeof CreatePaymentBodySchema>

export const PaymentRedirectSchema = z.object({
  method: z.enum(['GET', 'POST']),
  url: z.string(),
  /** Sent as a form when the method is POST (eSewa); empty for GET. */
  fields: z.record(z.string(), z.string()),
})
export type PaymentRedirect = z.infer<typeof PaymentRedirectSchema>

export const PaymentStartSchema = z.object({
  payment_id: z.number().int(),
  provider: PaymentProviderSchema,
  amount_paisa: z.number().int(),
  status: z.literal('pending'),
  redirect: PaymentRedirectSchema,
})
export type PaymentStart = z.infer<typeof PaymentStartSchema>

export const PaymentSchema = z.object({
  payment_id: z.number().int(),
  provider: PaymentProviderSchema,
  plan_id: z.number().int(),
  plan_name: BilingualSchema,
  amount_paisa: z.number().int(),
  days: z.number().int(),
  status: PaymentStatusSchema,
  failure_reason: PaymentFailureSchema.nullable(),
  /** The learner's paid access end now (not only this payment's): null without access. */
  paid_access_until: IsoDateTimeSchema.nullable(),
  created_at: IsoDateTimeSchema,
  completed_at: IsoDateTimeSchema.nullable(),
})
export type Payment = z.infer<typeof PaymentSchema>

export const AdminPaymentsQuerySchema = z.object({
  status: PaymentStatusSchema.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
})

export const AdminPaymentSchema = z.object({
  payment_id: z.number().int(),
  provider: PaymentProviderSchema,
  status: PaymentStatusSchema,
  failure_reason: PaymentFailureSchema.nullable(),
  amount_paisa: z.number().int(),
  days: z.number().int(),
  plan: z.object({ id: z.number().int(), name: BilingualSchema }),
  learner: z.object({ id: z.number().int(), username: z.string() }),
  provider_ref: z.string().nullable(),
  created_at: IsoDateTimeSchema,
  completed_at: IsoDateTimeSchema.nullable(),
})
export type AdminPayment = z.infer<typeof AdminPaymentSchema>

export const AdminPaymentPageSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  results: z.array(AdminPaymentSchema),
})
export type AdminPaymentPage = z.infer<typeof AdminPaymentPageSchema>

/** Far-future end that stands for "paid access with no end" (an admin's grant without --days). */
export const NO_END_ISO = '9999-12-31T23:59:59.999Z'
