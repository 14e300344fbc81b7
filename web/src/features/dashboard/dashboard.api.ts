import type { AvailableQuiz } from '../../api/available-quizzes'

/** Why Start is unavailable, if it is: paid access missing, or no attempts left (WEB.md). */
export function startBlocker(quiz: AvailableQuiz): 'paid_only' | 'no_attempts' | null {
  if (quiz.can_start) return null
  const attemptsLeft = quiz.remaining_attempts > 0 || quiz.has_attempt_in_progress
  if (quiz.is_paid_tier && attemptsLeft) return 'paid_only'
  return 'no_attempts'
}
