import { QueryClient } from '@tanstack/react-query'
import { ApiError } from '../api/api-error'

/** Retry only what may pass on its own: no answer at all (bad connection) or a 5xx. A 4xx will not change. */
export function shouldRetry(failureCount: number, error: unknown) {
  if (failureCount >= 3) return false
  return !(error instanceof ApiError) || error.isNetworkError || error.status >= 500
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  })
}
