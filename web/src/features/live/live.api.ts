// A live mock's leaderboard (API.md "Live mocks").
import type { Leaderboard } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { availableQuizKeys } from '../../api/available-quizzes'
import { api } from '../../api/client'

export type { Leaderboard } from '@quiz/contracts'

/** Under the learner's quiz list: a submit (which invalidates `availableQuizKeys.all`) refreshes the board too. */
export const liveKeys = {
  leaderboard: (quizId: number) => [...availableQuizKeys.all, quizId, 'leaderboard'] as const,
}

/** Before the common end the board changes its status by itself; after it, only a key decision changes it. */
const WAITING_POLL_MS = 60_000

export const leaderboardQuery = (quizId: number) =>
  queryOptions({
    queryKey: liveKeys.leaderboard(quizId),
    queryFn: ({ signal }) => api.get<Leaderboard>(`/quizzes/${quizId}/leaderboard/`, { signal }),
    refetchInterval: (query) => {
      const status = query.state.data?.status
      return status === 'upcoming' || status === 'running' ? WAITING_POLL_MS : false
    },
  })
