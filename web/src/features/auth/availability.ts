import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import { visitor } from './auth.api'

// Registration's "is this username / phone number free?" checks, with TanStack Query (registration loads it; the
// login screen does not).

export type AvailabilityKind = 'username' | 'phone'

export const authKeys = {
  all: ['auth'] as const,
  exists: (kind: AvailabilityKind, value: string) =>
    [...authKeys.all, 'exists', kind, kind === 'username' ? value.toLowerCase() : value] as const,
}

/** The availability checks are reads (POST only keeps the value out of URLs and logs), so they are cached queries. */
export const authQueries = {
  exists: (kind: AvailabilityKind, value: string) =>
    queryOptions({
      queryKey: authKeys.exists(kind, value),
      queryFn: ({ signal }) =>
        (kind === 'username'
          ? api.post<{ exists: boolean }>('/users/check-username/', { username: value }, { ...visitor, signal })
          : api.post<{ exists: boolean }>('/users/check-phone/', { phone_number: value }, { ...visitor, signal })
        ).then((answer) => answer.exists),
      staleTime: 15_000,
    }),
}
