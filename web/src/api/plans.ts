// Plans are read by the nav (which shows "Plans" only when some exist) and by the payments feature: shared here.
import type { Plan } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from './client'

export type { Plan }

export const planKeys = { all: ['plans'] as const, active: () => ['plans', 'active'] as const }

export const activePlansQuery = () =>
  queryOptions({
    queryKey: planKeys.active(),
    queryFn: ({ signal }) => api.get<Plan[]>('/plans/', { signal }),
    staleTime: 5 * 60_000,
  })
