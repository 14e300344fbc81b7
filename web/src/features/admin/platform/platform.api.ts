// The platform admins' routes (API.md "Institutes: many on one deployment", "Platform admins", National mocks).
import type {
  ActAs,
  Leaderboard,
  NationalMockCreate,
  PlatformInstitute,
  PlatformInstituteCreate,
  PlatformInstitutePage,
  PlatformInstituteUpdate,
  PlatformNationalMock,
} from '@quiz/contracts'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../api/client'
import { platformPaths } from './platform-route'

export type { Leaderboard, NationalMockCreate, PlatformInstitute, PlatformInstituteCreate, PlatformNationalMock }

export const PLATFORM_PAGE_SIZE = 100

const keys = {
  institutes: ['platform', 'institutes'] as const,
  national: ['platform', 'national-mocks'] as const,
  board: (id: number) => ['platform', 'national-mocks', id, 'board'] as const,
}

export const platformQueries = {
  institutes: (page: number) =>
    queryOptions({
      queryKey: [...keys.institutes, page],
      queryFn: ({ signal }) =>
        api.get<PlatformInstitutePage>(`/platform/institutes/?page=${page}&page_size=${PLATFORM_PAGE_SIZE}`, {
          signal,
        }),
    }),
  national: () =>
    queryOptions({
      queryKey: keys.national,
      queryFn: ({ signal }) => api.get<{ items: PlatformNationalMock[] }>('/platform/national-mocks/', { signal }),
    }),
  /**
   * The national board over every institute taking part (names are "<institute> · <code>"), on the platform's own
   * address, where the learners' `/api/national-mocks/{id}/leaderboard/` (an institute's route) does not answer.
   */
  board: (id: number) =>
    queryOptions({
      queryKey: keys.board(id),
      queryFn: ({ signal }) => api.get<Leaderboard>(`/platform/national-mocks/${id}/leaderboard/`, { signal }),
    }),
}

export function useCreateInstitute() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: PlatformInstituteCreate) => api.post<PlatformInstitute>('/platform/institutes/', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.institutes }),
  })
}

export function useUpdateInstitute() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, update }: { id: number; update: PlatformInstituteUpdate }) =>
      api.patch<PlatformInstitute>(`/platform/institutes/${id}/`, update),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.institutes }),
  })
}

/** An admin token of the institute for 15 minutes, recorded in both audit trails. */
export function useActAs() {
  return useMutation({ mutationFn: (id: number) => api.post<ActAs>(`/platform/institutes/${id}/act/`, {}) })
}

export function useScheduleNationalMock() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: NationalMockCreate) => api.post<PlatformNationalMock>('/platform/national-mocks/', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.national }),
  })
}

/** The address a platform admin's acting token opens on: the institute's first host, else its slug's. */
export function actAsUrl(institute: Pick<PlatformInstitute, 'hosts' | 'slug'>, access: string, here: Location) {
  const host = institute.hosts[0] ?? `${institute.slug}.${here.host}`
  return `${here.protocol}//${host}${platformPaths.actAs}#access=${encodeURIComponent(access)}`
}
