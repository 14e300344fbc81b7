import { queryOptions } from '@tanstack/react-query'
import { ApiError } from '../../api/api-error'
import { api } from '../../api/client'
import type { BilingualText } from '../../i18n/use-bilingual'

// Wire shapes of API.md "Quizzes for learners" (types only: zod stays out of the web bundle).

export type Difficulty = 'easy' | 'medium' | 'hard'

export interface QuizListItem {
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

/** question id -> option id; null clears an answer. Keys are question ids as strings (JSON object keys). */
export type AnswerMap = Record<string, number | null>

export interface Attempt {
  id: number
  started_at: string
  deadline: string
  remaining_seconds: number
  answers: AnswerMap
}

export interface QuizSession {
  id: number
  title: BilingualText
  duration_minutes: number
  difficulty: Difficulty
  is_paid_tier: boolean
  allowed_attempts: number
  remaining_attempts: number
  question_count: number
  questions: { id: number }[]
  attempt: Attempt
}

export interface SvgPicture {
  svg: string
  caption: BilingualText
}

export interface QuestionOption {
  id: number
  text: BilingualText
  image: SvgPicture | null
}

export interface Question {
  id: number
  number: number
  text: BilingualText
  topic: string
  image: SvgPicture | null
  options: QuestionOption[]
}

export interface SubmitResult {
  attempt_id: number
  score: number
  correct: number
  incorrect: number
  unanswered: number
  total_questions: number
  completed_timestamp: string
  late: boolean
}

export const quizKeys = {
  /** GET /api/quizzes/: the same key as the dashboard's list, so both share one cache entry. */
  list: ['quizzes'] as const,
  /** The results feature's root key (GET /api/results/ and the reports): a submission adds a result. */
  results: ['results'] as const,
  /** Questions are fixed for an attempt, so they are cached per attempt (outside ['quizzes'], which submit invalidates). */
  question: (quizId: number, attemptId: number, number: number) => ['quiz-attempts', quizId, attemptId, 'questions', number] as const,
}

export const quizQueries = {
  list: () => queryOptions({ queryKey: quizKeys.list, queryFn: () => api.get<QuizListItem[]>('/quizzes/') }),
  question: (quizId: number, attemptId: number, number: number) =>
    queryOptions({
      queryKey: quizKeys.question(quizId, attemptId, number),
      queryFn: () => api.get<Question>(`/quizzes/${quizId}/question/${number}/`),
      staleTime: Infinity,
      gcTime: 60 * 60_000,
    }),
}

/** Starts the learner's attempt or resumes the one in progress: a state change, so never a cached query. */
export function startOrResumeAttempt(quizId: number) {
  return api.get<QuizSession>(`/quizzes/${quizId}/`)
}

export function saveAnswers(quizId: number, answers: AnswerMap) {
  return api.put<{ saved: number }>(`/quizzes/${quizId}/answers/`, { answers })
}

export function submitQuiz(quizId: number, body: { answers: AnswerMap; attempt_id: number }) {
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
