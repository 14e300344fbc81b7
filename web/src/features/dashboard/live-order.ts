import type { QuizListItem } from '@quiz/contracts'

/**
 * Live mocks still to come or open to join, soonest first; then those running with joining closed; then everything
 * else in the server's order (ended mocks included).
 */
export function liveFirst(quizzes: readonly QuizListItem[], now: number): QuizListItem[] {
  const rank = (quiz: QuizListItem) => {
    const status = quiz.live?.status
    if (status !== 'upcoming' && status !== 'running') return 2
    return now < Date.parse(quiz.live!.join_ends_at) ? 0 : 1
  }
  const startOf = (quiz: QuizListItem) => (quiz.live ? Date.parse(quiz.live.starts_at) : 0)
  // Array.prototype.sort is stable: the rest keep the server's order.
  return [...quizzes].sort((a, b) => rank(a) - rank(b) || (rank(a) < 2 ? startOf(a) - startOf(b) : 0))
}
