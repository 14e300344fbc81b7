// "May this learner start?", written once without zod for the dashboard and the instructions screen
// (`@quiz/contracts/rules/start`).
import type { QuizListItem } from '../quizzes'

/** What a learner's Start button does for a quiz of the list (WEB.md). */
export type StartState = 'start' | 'resume' | 'no_attempts' | 'paid_only'

/**
 * `can_start` is the server's answer (API.md); when it is false the reason is read from the rest: an attempt in
 * progress or attempts left mean the paid-tier check refused it.
 */
export function startState(
  quiz: Pick<QuizListItem, 'can_start' | 'has_attempt_in_progress' | 'remaining_attempts' | 'is_paid_tier'>,
): StartState {
  if (quiz.can_start) return quiz.has_attempt_in_progress ? 'resume' : 'start'
  if (quiz.is_paid_tier && (quiz.has_attempt_in_progress || quiz.remaining_attempts > 0)) return 'paid_only'
  return 'no_attempts'
}
