import type { QuizListItem } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from './client'

/**
 * Keys of the learner's quiz list, shared by the dashboard and the instructions screen (SPEC.md finds the quiz by
 * id in it, so coming from a card shows the instructions at once). A submit changes remaining attempts: invalidate
 * `availableQuizKeys.all` after one.
 */
export const availableQuizKeys = {
  all: ['quizzes'] as const,
  available: () => [...availableQuizKeys.all, 'available'] as const,
}

export const availableQuizzesQuery = () =>
  queryOptions({
    queryKey: availableQuizKeys.available(),
    queryFn: ({ signal }) => api.get<QuizListItem[]>('/quizzes/', { signal }),
  })
