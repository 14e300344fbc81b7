// National mocks as an institute's admins see them (API.md "Institutes: many on one deployment", National mocks).
import type { AdminNationalMock, Leaderboard } from '@quiz/contracts'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../api/client'

export type { AdminNationalMock, Leaderboard }

const keys = {
  all: ['admin', 'national-mocks'] as const,
  board: (quizId: number) => ['admin', 'national-mocks', 'board', quizId] as const,
}

export const nationalQueries = {
  list: () =>
    queryOptions({
      queryKey: keys.all,
      queryFn: ({ signal }) => api.get<{ items: AdminNationalMock[] }>('/admin/national-mocks/', { signal }),
    }),
  /** The institute's own board of its copy: its learners by name, each with the national rank beside. */
  board: (quizId: number) =>
    queryOptions({
      queryKey: keys.board(quizId),
      queryFn: ({ signal }) => api.get<Leaderboard>(`/quizzes/${quizId}/leaderboard/`, { signal }),
    }),
}

/** Takes part (`join: true`) or withdraws before the start; the list is read again either way. */
export function useTakePart() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, join }: { id: number; join: boolean }): Promise<void> => {
      if (join) await api.post<AdminNationalMock>(`/admin/national-mocks/${id}/join/`, {})
      else await api.delete(`/admin/national-mocks/${id}/join/`)
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  })
}
