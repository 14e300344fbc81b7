import type { FlagQueue, FlagQueueQuery, KeyDecisionRequest, KeyDecisionResult } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../api/client'

// Wire shapes of API.md "Answer-key challenges and re-grading", the admin's side: types from the contracts.
export type { DropPolicy, FlagQueue, FlagQueueEntry as FlaggedQuestion, FlagReason, KeyAction } from '@quiz/contracts'
export type { KeyDecisionRequest as KeyDecisionBody, KeyDecisionResult } from '@quiz/contracts'
export type QueueStatus = NonNullable<FlagQueueQuery['status']>

export const flagKeys = {
  all: ['admin', 'flags'] as const,
  queue: (status: QueueStatus, page: number) => ['admin', 'flags', status, page] as const,
}

export const flagQueries = {
  queue: (status: QueueStatus, page = 1) =>
    queryOptions({
      queryKey: flagKeys.queue(status, page),
      queryFn: ({ signal }) => api.get<FlagQueue>(`/admin/flags/?status=${status}&page=${page}`, { signal }),
    }),
}

export const decideKey = (questionId: number, body: KeyDecisionRequest) =>
  api.post<KeyDecisionResult>(`/admin/questions/${questionId}/key/`, body)
