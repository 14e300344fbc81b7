import type { QuizListItem } from '@quiz/contracts'

/** Live mocks still to come or running, soonest first, ahead of everything else (which keeps the server's order). */
export function liveFirst(quizzes: readonly QuizListItem[]): QuizListItem[] {
  const coming = (quiz: QuizListItem) => quiz.live?.status === 'upcoming' || quiz.live?.status === 'running'
  const ahead = quizzes.filter(coming).sort((a, b) => Date.parse(a.live!.starts_at) - Date.parse(b.live!.starts_at))
  return [...ahead, ...quizzes.filter((quiz) => !coming(quiz))]
}
