import { queryOptions } from '@tanstack/react-query'
import { ApiError } from '../../api/api-error'
import { availableQuizKeys } from '../../api/available-quizzes'
import { api } from '../../api/client'
import type { AnswerMap, QuizAttempt, QuizQuestion, SubmitResult } from '@quiz/contracts'
import type { SaveBatch } from './answer-queue'
import { loadQuestion, saveQuestion } from './attempt-store'

// Wire shapes of API.md "Quizzes for learners": types only from the contracts (zod stays out of the web bundle).
export type { AnswerMap, QuizListItem, SubmitResult } from '@quiz/contracts'
/** GET /api/quizzes/{id}/: the quiz with the attempt it started or resumed. */
export type QuizSession = QuizAttempt
/** GET /api/quizzes/{id}/question/{n}/. */
export type Question = QuizQuestion

export const quizKeys = {
  /** Root of the learner's quiz list: a submission changes remaining attempts. */
  list: availableQuizKeys.all,
  /** The results feature's root key (GET /api/results/ and the reports): a submission adds a result. */
  results: ['results'] as const,
  /** Questions are fixed for an attempt, so they are cached per attempt (outside ['quizzes'], which submit invalidates). */
  question: (quizId: number, attemptId: number, number: number) =>
    ['quiz-attempts', quizId, attemptId, 'questions', number] as const,
}

export const quizQueries = {
  question: (quizId: number, attemptId: number, number: number) =>
    queryOptions({
      queryKey: quizKeys.question(quizId, attemptId, number),
      // The device's copy first (decision 019: the paper is kept for the attempt), else the server, then kept.
      queryFn: async () => {
        const kept = await loadQuestion(attemptId, number).catch(() => undefined)
        if (kept) return kept
        const question = await api.get<Question>(`/quizzes/${quizId}/question/${number}/`)
        await saveQuestion(attemptId, number, question).catch(() => undefined)
        return question
      },
      // Offline, TanStack Query would pause the query and never read the device: it runs whatever the connection.
      networkMode: 'always',
      staleTime: Infinity,
      gcTime: 60 * 60_000,
    }),
}

/** Starts the learner's attempt or resumes the one in progress: a state change, so never a cached query. */
export function startOrResumeAttempt(quizId: number) {
  return api.get<QuizSession>(`/quizzes/${quizId}/`)
}

/** One autosave: answers, marks, visits and seconds (API.md "Exam feel"); any part may be absent. */
export function saveAnswers(quizId: number, batch: SaveBatch) {
  return api.put<{ saved: number }>(`/quizzes/${quizId}/answers/`, batch)
}

export function submitQuiz(quizId: number, body: SaveBatch & { answers: AnswerMap; attempt_id: number }) {
  return api.post<SubmitResult>(`/quizzes/${quizId}/submit/`, body)
}

/** Worth trying again: no answer at all (offline, timeout), rate limited, or a server failure. A 4xx will not change. */
export function isTransientError(error: unknown) {
  if (!(error instanceof ApiError)) return true
  return error.isNetworkError || error.status === 429 || error.status >= 500
}

/** Runs `task`, retrying transient failures after each of `delaysMs`; the last failure is thrown. */
export async function withRetry<T>(task: () => Promise<T>, delaysMs: readonly number[]): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await task()
    } catch (error) {
      const delay = delaysMs[attempt]
      if (delay === undefined || !isTransientError(error)) throw error
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }
}
