import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import type { ReportCard } from '@quiz/contracts'
import { resultListQuery } from '../../api/results'
import { prefetchWritten } from './written.api'

// Wire shapes of API.md "Results": types only from the contracts (zod stays out of the web bundle).
export type { QuizResults, ReportAnswer, ReportCard, ReportQuestion, ResultAttempt } from '@quiz/contracts'

export const resultKeys = {
  all: ['results'] as const,
  report: (attemptId: number) => ['results', attemptId] as const,
}

export const resultQueries = {
  list: resultListQuery,
  // A finished attempt changes only by a key decision or the learner's own challenge: the default freshness is enough.
  report: (attemptId: number) =>
    queryOptions({
      queryKey: resultKeys.report(attemptId),
      queryFn: async ({ client }) => {
        const card = await api.get<ReportCard>(`/results/${attemptId}/`)
        prefetchWritten(client, card)
        return card
      },
    }),
}
