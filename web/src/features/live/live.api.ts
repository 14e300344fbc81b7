// Live mocks for learners (API.md "Live mocks"): registering for reminders and the leaderboard.
import type { Leaderboard, QuizListItem } from '@quiz/contracts'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { availableQuizKeys } from '../../api/available-quizzes'
import { api } from '../../api/client'

export type { Leaderboard, LeaderboardStatus, LiveInfo } from '@quiz/contracts'

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

/** POST (register) or DELETE (unregister) `/api/quizzes/{id}/register/`; the list's `registered` follows. */
export function useLiveRegistration(quizId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (register: boolean) =>
      register ? api.post<unknown>(`/quizzes/${quizId}/register/`) : api.delete(`/quizzes/${quizId}/register/`),
    onSuccess: (_answer, register) =>
      queryClient.setQueryData<QuizListItem[]>(availableQuizKeys.available(), (list) =>
        list?.map((quiz) => (quiz.id === quizId ? { ...quiz, registered: register } : quiz)),
      ),
    // A refusal (the join window closed meanwhile) means the list is out of date.
    onError: () => queryClient.invalidateQueries({ queryKey: availableQuizKeys.available() }),
  })
}
