// Plans and payments (API.md "Paid access").
import type { AdminPayment, AdminPaymentPage, Bilingual, PaymentStatus, Plan } from '@quiz/contracts'
import { queryOptions, useMutation } from '@tanstack/react-query'
import { api } from '../../../api/client'
import { planKeys } from '../../../api/plans'
import { adminKeys, useInvalidate } from '../admin-keys'

export type { AdminPayment, AdminPaymentPage, PaymentStatus, Plan }

export interface PlanPayload {
  name: Bilingual
  price_paisa: number
  days: number
  active: boolean
}

export const adminPlanQueries = {
  plans: () => queryOptions({ queryKey: adminKeys.plans, queryFn: () => api.get<Plan[]>('/admin/plans/') }),
  payments: (status: PaymentStatus | null, page: number) =>
    queryOptions({
      queryKey: adminKeys.payments(status, page),
      queryFn: () => api.get<AdminPaymentPage>(`/admin/payments/?page=${page}${status ? `&status=${status}` : ''}`),
    }),
}

/** A plan change shows in the admin's plans and in the learners' (the nav and the plans page). */
export function useSavePlan() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, plan }: { id: number | null; plan: PlanPayload }) =>
      id === null ? api.post<Plan>('/admin/plans/', plan) : api.patch<Plan>(`/admin/plans/${id}/`, plan),
    onSuccess: () => invalidate(adminKeys.plans, planKeys.all),
  })
}
