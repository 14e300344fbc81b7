import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import { paisaToRupees, rupeesToPaisa } from '../money'
import { fetchProvider, jsonOf, type PaymentProviderAdapter, type ProviderPayment, type Verification } from './provider'

export interface EsewaSettings {
  formUrl: string
  statusUrl: string
  productCode: string
  secretKey: string
  publicUrl: string
  timeoutMs: number
}

const HOUR = 3_600_000

// eSewa ePay v2 as docs/decisions/009 "In the code" describes it.
const StatusResponse = z.object({
  product_code: z.string(),
  transaction_uuid: z.string(),
  total_amount: z.union([z.number(), z.string()]),
  status: z.string(),
  ref_id: z.string().nullish(),
})

export function esewaSignature(secretKey: string, fields: [name: string, value: string][]): string {
  const message = fields.map(([name, value]) => `${name}=${value}`).join(',')
  return createHmac('sha256', secretKey).update(message).digest('base64')
}

export type EsewaReturnData = {
  transaction_uuid: string
  product_code: string
  total_amount: string
  status: string
}

// Undefined for anything that does not verify; the signature is compared in constant time.
export function verifyEsewaReturn(secretKey: string, data: string): EsewaReturnData | undefined {
  let text: string
  let body: Record<string, unknown>
  try {
    text = Buffer.from(data, 'base64').toString('utf8')
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    return undefined
  }
  if (typeof body !== 'object' || body === null) return undefined
  const names = typeof body.signed_field_names === 'string' ? body.signed_field_names.split(',') : []
  // The fields our decision rests on must be among the signed ones, or a forger could change them freely.
  for (const needed of ['transaction_uuid', 'product_code', 'total_amount', 'status', 'signed_field_names'])
    if (!names.includes(needed)) return undefined
  const fields: [string, string][] = []
  for (const name of names) {
    const value = rawValue(text, body, name)
    if (value === undefined) return undefined
    fields.push([name, value])
  }
  if (typeof body.signature !== 'string') return undefined
  const expected = Buffer.from(esewaSignature(secretKey, fields))
  const given = Buffer.from(body.signature)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined
  const value = (name: string) => fields.find(([n]) => n === name)![1]
  return {
    transaction_uuid: value('transaction_uuid'),
    product_code: value('product_code'),
    total_amount: value('total_amount'),
    status: value('status'),
  }
}

// A JSON number (total_amount: 1000.0) is taken from the raw text: JSON.parse's 1000 would break the signature.
function rawValue(text: string, body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name]
  if (typeof value === 'string') return value
  if (typeof value !== 'number') return undefined
  const escaped = name.replace(/[^a-z_]/gi, '')
  return new RegExp(`"${escaped}"\\s*:\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`).exec(text)?.[1]
}

export function createEsewaAdapter(settings: EsewaSettings): PaymentProviderAdapter {
  const sign = (totalAmount: string, uuid: string) =>
    esewaSignature(settings.secretKey, [
      ['total_amount', totalAmount],
      ['transaction_uuid', uuid],
      ['product_code', settings.productCode],
    ])

  return {
    async start(payment) {
      // eSewa refuses a transaction_uuid it has seen; the random part keeps a retried id from colliding.
      const uuid = `${payment.id}-${randomBytes(6).toString('hex')}`
      const total = paisaToRupees(payment.amount_paisa)
      const back = `${settings.publicUrl}/api/payments/esewa/return/${payment.id}`
      return {
        providerRef: uuid,
        redirect: {
          method: 'POST',
          url: settings.formUrl,
          fields: {
            amount: total,
            tax_amount: '0',
            product_service_charge: '0',
            product_delivery_charge: '0',
            total_amount: total,
            transaction_uuid: uuid,
            product_code: settings.productCode,
            // eSewa appends "?data=..." to success_url, so neither URL carries a query string of its own.
            success_url: `${back}/success/`,
            failure_url: `${back}/failure/`,
            signed_field_names: 'total_amount,transaction_uuid,product_code',
            signature: sign(total, uuid),
          },
        },
      }
    },

    async verify(payment: ProviderPayment, now: number): Promise<Verification> {
      if (!payment.provider_ref) return { kind: 'failed', reason: 'initiate_failed' }
      const url = new URL(settings.statusUrl)
      url.searchParams.set('product_code', settings.productCode)
      url.searchParams.set('total_amount', paisaToRupees(payment.amount_paisa))
      url.searchParams.set('transaction_uuid', payment.provider_ref)
      let status: number
      let body: unknown
      try {
        const response = await fetchProvider(url.toString(), { method: 'GET' }, settings.timeoutMs)
        status = response.status
        body = await jsonOf(response)
      } catch (error) {
        return { kind: 'unreachable', detail: (error as Error).message }
      }
      const parsed = StatusResponse.safeParse(body)
      // eSewa's own failures come as {code, error_message}; only a status body is an answer about the payment.
      if (!parsed.success) return { kind: 'unreachable', detail: `eSewa status check answered ${status}` }
      const answer = parsed.data
      if (answer.transaction_uuid !== payment.provider_ref || answer.product_code !== settings.productCode) {
        return {
          kind: 'failed',
          reason: 'mismatch',
          warning: `eSewa status named ${answer.product_code}/${answer.transaction_uuid}, not ours`,
        }
      }
      switch (answer.status) {
        case 'COMPLETE': {
          const paid = rupeesToPaisa(answer.total_amount)
          if (paid !== payment.amount_paisa)
            return {
              kind: 'failed',
              reason: 'mismatch',
              warning: `eSewa says COMPLETE for Rs ${String(answer.total_amount)}, we asked ${payment.amount_paisa} paisa`,
            }
          return { kind: 'completed', transactionId: answer.ref_id ?? null }
        }
        case 'PENDING':
        case 'AMBIGUOUS':
          return { kind: 'pending' }
        // A learner who never logged in at eSewa leaves no record: wait an hour before calling it failed.
        case 'NOT_FOUND':
          return now - payment.created_at > HOUR ? { kind: 'failed', reason: 'not_found' } : { kind: 'pending' }
        case 'CANCELED':
          return { kind: 'failed', reason: 'canceled' }
        case 'FULL_REFUND':
        case 'PARTIAL_REFUND':
          return { kind: 'failed', reason: 'refunded' }
        default:
          return { kind: 'pending', warning: `eSewa status "${answer.status}" is not one we know` }
      }
    },
  }
}
