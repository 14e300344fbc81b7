import type { Difficulty } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import type { BilingualText } from '../i18n/use-bilingual'
import { api } from './client'

/** One entry of GET /api/quizzes/ (API.md "Quizzes for learners"). */
export interface AvailableQuiz {
  id: number
  title: BilingualText
  duration_minutes: number
  difficulty: Difficulty
  is_paid_tier: boolean
  allowed_attempts: number
  remaining_attempts: number
  has_attempt_in_progress: boolean
  can_start: boolean
  start_time: string | null
  end_time: string | null
  question_count: number
}

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
    queryFn: ({ signal }) => api.get<AvailableQuiz[]>('/quizzes/', { signal }),
  })
