import type { QuizResults } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from './client'

/** The learner's finished attempts by quiz (`GET /api/results/`): My Results, and the dashboard's paper results. */
export const resultListQuery = () =>
  queryOptions({ queryKey: ['results'] as const, queryFn: () => api.get<QuizResults[]>('/results/') })
