// Response shapes come from the contracts as types only (zod stays out of the web bundle).
import type { CreatePaymentBody, Payment, PaymentProvider, PaymentRedirect, PaymentStart } from '@quiz/contracts'
import { queryOptions, useMutation } from '@tanstack/react-query'
import { api } from '../../api/client'

export type { Payment, PaymentProvider, PaymentRedirect }

/** How often a pending payment's page asks again: each ask makes the server check with the provider. */
export const PENDING_POLL_MS = 3000

export const paymentKeys = {
  all: ['payments'] as const,
  providers: () => [...paymentKeys.all, 'providers'] as const,
  payment: (id: number) => [...paymentKeys.all, id] as const,
}

export const paymentQueries = {
  providers: () =>
    queryOptions({
      queryKey: paymentKeys.providers(),
      queryFn: ({ signal }) => api.get<PaymentProvider[]>('/payments/providers/', { signal }),
      staleTime: 5 * 60_000,
    }),
  payment: (id: number) =>
    queryOptions({
      queryKey: paymentKeys.payment(id),
      queryFn: ({ signal }) => api.get<Payment>(`/payments/${id}/`, { signal }),
      // Poll by itself while the provider has not settled it; stop once it is completed or failed.
      refetchInterval: (query) => (query.state.data?.status === 'pending' ? PENDING_POLL_MS : false),
    }),
}

export function useStartPayment() {
  return useMutation({ mutationFn: (body: CreatePaymentBody) => api.post<PaymentStart>('/payments/', body) })
}

/**
 * Leaves for the provider. eSewa takes a real form POST (its fields are signed for it), so a form is built and
 * submitted; Khalti and the fake gateway are plain navigations.
 */
export function handOff(redirect: PaymentRedirect, doc: Document = document) {
  if (redirect.method === 'GET') {
    doc.defaultView!.location.assign(redirect.url)
    return
  }
  const form = doc.createElement('form')
  form.method = 'POST'
  form.action = redirect.url
  form.hidden = true
  for (const [name, value] of Object.entries(redirect.fields)) {
    const input = doc.createElement('input')
    input.type = 'hidden'
    input.name = name
    input.value = value
    form.append(input)
  }
  doc.body.append(form)
  form.submit()
}
