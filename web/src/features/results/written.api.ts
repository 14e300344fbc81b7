import type { WrittenResult } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'

// Wire shapes of API.md "Written answers marked by rubric", Results and Regrade requests: types from the contracts.
export type { WrittenResult } from '@quiz/contracts'

/** A re-mark request as the result shows it; the contract leaves it open, so only what is there is read. */
export interface RemarkRequest {
  status?: string
  message?: string
  response?: string | null
}

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

export const askForRemark = (attemptId: number, questionId: number, body: { message: string; item_id?: number }) =>
  api.post<unknown>(`/results/${attemptId}/written/${questionId}/regrade/`, body)
