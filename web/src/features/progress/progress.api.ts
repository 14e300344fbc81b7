import type { Progress } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'

export type { Progress } from '@quiz/contracts'

export const progressKeys = { all: ['progress'] as const }

export const progressQuery = () =>
  queryOptions({
    queryKey: progressKeys.all,
    queryFn: ({ signal }) => api.get<Progress>('/results/progress/', { signal }),
  })
