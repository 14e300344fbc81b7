import type { DailyToday } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { availableQuizKeys } from './available-quizzes'
import { api } from './client'

/**
 * Today's daily set and the learner's streak (`GET /api/daily/`), for the dashboard's card and a daily report. Under
 * the quiz list's key: a submit invalidates `availableQuizKeys.all`, so the card shows the score and the new streak.
 * Here, not in features/daily: the dashboard asks for it at once, beside the quiz list, while the card's code loads.
 */
export const dailyTodayQuery = () =>
  queryOptions({
    queryKey: [...availableQuizKeys.all, 'daily'] as const,
    queryFn: ({ signal }) => api.get<DailyToday>('/daily/', { signal }),
  })
