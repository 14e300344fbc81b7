import type { Difficulty } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'
import type { BilingualText } from '../../i18n/use-bilingual'

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
 * Keys of the learner's quiz list. The instructions screen reads the same list (SPEC.md finds the quiz by id
 * in it), and a submit changes remaining attempts: invalidate `dashboardKeys.all` after one.
 */
export const dashboardKeys = {
  all: ['quizzes'] as const,
  available: () => [...dashboardKeys.all, 'available'] as const,
}

export const availableQuizzesQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.available(),
    queryFn: ({ signal }) => api.get<AvailableQuiz[]>('/quizzes/', { signal }),
  })

/** Why Start is unavailable, if it is: paid access missing, or no attempts left (WEB.md). */
export function startBlocker(quiz: AvailableQuiz): 'paid_only' | 'no_attempts' | null {
  if (quiz.can_start) return null
  const attemptsLeft = quiz.remaining_attempts > 0 || quiz.has_attempt_in_progress
  if (quiz.is_paid_tier && attemptsLeft) return 'paid_only'
  return 'no_attempts'
}
