import { z } from 'zod'
import {
  fetchProvider,
  jsonOf,
  ProviderUnreachable,
  type PaymentProviderAdapter,
  type ProviderPayment,
  type Verification,
} from './provider'

export interface KhaltiSettings {
  baseUrl: string
  secretKey: string
  publicUrl: string
  timeoutMs: number
}

// Khalti ePayment as docs/decisions/009 "In the code" describes it. payment_url must be http(s), never javascript:.
const InitiateResponse = z.object({ pidx: z.string().min(1).max(100), payment_url: z.url({ protocol: /^https?$/ }) })
const LookupResponse = z.object({
  pidx: z.string(),
  total_amount: z.number().int(),
  status: z.string(),
  transaction_id: z.string().nullish(),
})

export function createKhaltiAdapter(settings: KhaltiSettings): PaymentProviderAdapter {
  const headers = { authorization: `Key ${settings.secretKey}`, 'content-type': 'application/json' }

  async function post(path: 'epayment/initiate/' | 'epayment/lookup/', body: object) {
    const response = await fetchProvider(
      new URL(path, settings.baseUrl).toString(),
      { method: 'POST', headers, body: JSON.stringify(body) },
      settings.timeoutMs,
    )
    return { status: response.status, body: await jsonOf(response) }
  }

  return {
    async start(payment) {
      const { status, body } = await post('epayment/initiate/', {
        return_url: `${settings.publicUrl}/api/payments/khalti/return/`,
        website_url: settings.publicUrl,
        amount: payment.amount_paisa,
        purchase_order_id: String(payment.id),
        purchase_order_name: payment.plan_name,
      })
      const parsed = InitiateResponse.safeParse(body)
      if (status !== 200 || !parsed.success) {
        // Khalti's error bodies name the bad field or say "Invalid token."; none of them carries our key.
        throw new ProviderUnreachable(`Khalti initiate answered ${status}: ${JSON.stringify(body)?.slice(0, 300)}`)
      }
      return { providerRef: parsed.data.pidx, redirect: { method: 'GET', url: parsed.data.payment_url, fields: {} } }
    },

    async verify(payment: ProviderPayment): Promise<Verification> {
      if (!payment.provider_ref) return { kind: 'failed', reason: 'initiate_failed' }
      let answer
      try {
        answer = await post('epayment/lookup/', { pidx: payment.provider_ref })
      } catch (error) {
        return { kind: 'unreachable', detail: (error as Error).message }
      }
      // A lookup of a finished-but-unpaid pidx may come with a 4xx status and the same body shape: the body decides.
      const parsed = LookupResponse.safeParse(answer.body)
      if (!parsed.success || answer.status >= 500) {
        return { kind: 'unreachable', detail: `Khalti lookup answered ${answer.status} without a lookup body` }
      }
      const lookup = parsed.data
      if (lookup.pidx !== payment.provider_ref) {
        return { kind: 'failed', reason: 'mismatch', warning: `Khalti lookup named pidx ${lookup.pidx}` }
      }
      return khaltiOutcome(lookup.status, lookup.total_amount, payment.amount_paisa, lookup.transaction_id ?? null)
    },
  }
}

export function khaltiOutcome(status: string, totalPaisa: number, ourPaisa: number, transactionId: string | null) {
  switch (status) {
    case 'Completed':
      if (totalPaisa !== ourPaisa)
        return {
          kind: 'failed',
          reason: 'mismatch',
          warning: `Khalti says Completed for ${totalPaisa} paisa, we asked ${ourPaisa}`,
        } as const
      return { kind: 'completed', transactionId } as const
    case 'Pending':
    case 'Initiated':
      return { kind: 'pending' } as const
    case 'Expired':
      return { kind: 'failed', reason: 'expired' } as const
    case 'User canceled':
      return { kind: 'failed', reason: 'canceled' } as const
    case 'Refunded':
    case 'Partially Refunded':
      return { kind: 'failed', reason: 'refunded' } as const
    default:
      return { kind: 'pending', warning: `Khalti lookup status "${status}" is not one we know` } as const
  }
}
