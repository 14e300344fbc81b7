import type { PaymentFailure, PaymentRedirect } from '@quiz/contracts'

export interface ProviderPayment {
  id: number
  amount_paisa: number
  provider_ref: string | null
  created_at: number
  plan_name: string
}

// `unreachable` leaves the payment pending; `warning` (another amount or id, or an unknown answer) is logged.
export type Verification =
  | { kind: 'completed'; transactionId: string | null }
  | { kind: 'pending'; warning?: string }
  | { kind: 'failed'; reason: PaymentFailure; warning?: string }
  | { kind: 'unreachable'; detail: string }

export interface StartedPayment {
  providerRef: string
  redirect: PaymentRedirect
}

export interface PaymentProviderAdapter {
  start(payment: ProviderPayment): Promise<StartedPayment>
  verify(payment: ProviderPayment, now: number): Promise<Verification>
}

export class ProviderUnreachable extends Error {}

export async function fetchProvider(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    throw new ProviderUnreachable(`${new URL(url).origin} could not be reached (${reason})`)
  }
}

export async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text()
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
