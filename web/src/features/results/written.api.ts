import type { RegradeRequest, RegradeRequestInput, WrittenResult } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'

// Wire shapes of API.md "Written answers marked by rubric", Results and Regrade requests: types from the contracts.
export type { RegradeRequest, WrittenResult } from '@quiz/contracts'

export const writtenKeys = {
  result: (attemptId: number, questionId: number) => ['results', attemptId, 'written', questionId] as const,
}

export const writtenQueries = {
  result: (attemptId: number, questionId: number) =>
    queryOptions({
      queryKey: writtenKeys.result(attemptId, questionId),
      queryFn: ({ signal }) => api.get<WrittenResult>(`/results/${attemptId}/written/${questionId}/`, { signal }),
    }),
}

export const askForRemark = (attemptId: number, questionId: number, body: RegradeRequestInput) =>
  api.post<RegradeRequest>(`/results/${attemptId}/written/${questionId}/regrade/`, body)
