import type { QuizQuestion } from '@quiz/contracts'
import { useQueries } from '@tanstack/react-query'
import { quizQueries } from './quiz.api'

/**
 * question number -> the passage it is read under, numbered from 1 in paper order, or null (the palette groups a
 * passage's questions: WEB.md "Question types on the screens"). The attempt lists only question ids, so the passages
 * are read from the questions already fetched (the kept paper fetches them all): observed, never fetched here.
 */
export function usePassageNumbers(quizId: number, attemptId: number | null, total: number) {
  return useQueries({
    queries: Array.from({ length: attemptId === null ? 0 : total }, (_, index) => ({
      ...quizQueries.question(quizId, attemptId ?? 0, index + 1),
      enabled: false,
    })),
    combine: (results) => passageNumbers(results.map((result) => result.data)),
  })
}

/** Numbers passages by first appearance; a question not fetched yet counts as lone until it is. */
export function passageNumbers(questions: readonly (QuizQuestion | undefined)[]) {
  const ordinal = new Map<number, number>()
  const byNumber = questions.map((question) => {
    const id = question?.passage?.id
    if (id === undefined) return null
    if (!ordinal.has(id)) ordinal.set(id, ordinal.size + 1)
    return ordinal.get(id)!
  })
  return (number: number): number | null => byNumber[number - 1] ?? null
}
