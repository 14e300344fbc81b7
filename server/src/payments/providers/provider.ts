import type { PaymentFailure, PaymentRedirect } from '@quiz/contracts'

/** What an adapter needs to know about one of our payments. */
export interface ProviderPayment {
  id: number
  amount_paisa: number
  /** Khalti's pidx, our eSewa transaction_uuid, the fake gateway's ref; null before the provider knows it. */
  provider_ref: string | null
  created_at: number
  plan_name: string
}

/**
 * The provider's own answer about a payment, already compared with ours (amount and id exactly).
 * `unreachable` means no trustworthy answer came (timeout, 5xx, garbage): the payment stays pending.
 * `warning` is logged: the provider named another amount or id, or said something we do not know.
 */
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
  /** Registers the payment with the provider (Khalti: server-side initiate) and says where the browser goes. */
  start(payment: ProviderPayment): Promise<StartedPayment>
  /** Asks the provider, server to server, what became of the payment. Never trusts anything from the browser. */
  verify(payment: ProviderPayment, now: number): Promise<Verification>
}

/** The provider could not be reached or answered with something unusable. */
export class ProviderUnreachable extends Error {}

/** fetch with a deadline; any network failure or timeout becomes ProviderUnreachable. */
export async function fetchProvider(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    throw new ProviderUnreachable(`${new URL(url).origin} could not be reached (${reason})`)
  }
}

/** The body as JSON, or undefined when it is not JSON. */
export async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text()
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
