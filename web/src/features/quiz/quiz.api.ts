import { queryOptions } from '@tanstack/react-query'
import { ApiError } from '../../api/api-error'
import { availableQuizKeys } from '../../api/available-quizzes'
import { api } from '../../api/client'
import { shouldRetry } from '../../api/query-client'
import type {
  AttemptSection,
  FetchedQuestion,
  QuizAttempt,
  QuizQuestion,
  SaveAnswersBody,
  SaveAnswersResult,
  SubmitAttemptBody,
  SubmitResult,
} from '@quiz/contracts'
import { heldPassageIds, loadQuestion, saveQuestion } from './attempt-store'

export const quizKeys = {
  /** Root of the learner's quiz list: a submission changes remaining attempts. */
  list: availableQuizKeys.all,
  /** The results feature's root key (GET /api/results/ and the reports): a submission adds a result. */
  results: ['results'] as const,
  /** Questions are fixed for an attempt, so they are cached per attempt (outside ['quizzes'], which submit invalidates). */
  question: (quizId: number, attemptId: number, number: number) =>
    ['quiz-attempts', quizId, attemptId, 'questions', number] as const,
}

/**
 * When a timed section's clock runs out on the device, the screen moves to the next section at once; the server
 * opens it at its own deadline, up to a second or two later (network, rounding). Its first question is asked for
 * again until the server has opened it, without a failure on screen.
 */
const SECTION_OPENING_RETRY_MS = 1000
const SECTION_OPENING_RETRIES = 5
const sectionOpeningOnServer = (error: unknown) => error instanceof ApiError && error.code === 'section_not_open'
export const retryQuestion = (failures: number, error: unknown) =>
  sectionOpeningOnServer(error) ? failures < SECTION_OPENING_RETRIES : shouldRetry(failures, error)

export const quizQueries = {
  question: (quizId: number, attemptId: number, number: number) =>
    queryOptions({
      queryKey: quizKeys.question(quizId, attemptId, number),
      // The device's copy first (decision 019: the paper is kept for the attempt), else the server, then kept.
      queryFn: async () => {
        const kept = await loadQuestion(attemptId, number).catch(() => undefined)
        if (kept) return kept
        // The passages the device holds come back by id alone (decision 130): a passage crosses the network once.
        const held = await heldPassageIds(attemptId).catch(() => [])
        const url = `/quizzes/${quizId}/question/${number}/`
        const fetched = await api.get<FetchedQuestion>(held.length > 0 ? `${url}?passages_held=${held.join(',')}` : url)
        await saveQuestion(attemptId, number, fetched).catch(() => undefined)
        if (!fetched.passage || fetched.passage.text) return fetched as QuizQuestion
        // Its passage is on the device, unless the device lost it meanwhile: then the question is asked for whole.
        const joined = await loadQuestion(attemptId, number).catch(() => undefined)
        return joined ?? api.get<QuizQuestion>(url)
      },
      // Offline, TanStack Query would pause the query and never read the device: it runs whatever the connection.
      networkMode: 'always',
      retry: retryQuestion,
      retryDelay: (failures, error) =>
        sectionOpeningOnServer(error) ? SECTION_OPENING_RETRY_MS : 1000 * 2 ** failures,
      staleTime: Infinity,
      gcTime: 60 * 60_000,
    }),
}

/** Starts the learner's attempt or resumes the one in progress: a state change, so never a cached query. */
export function startOrResumeAttempt(quizId: number) {
  return api.get<QuizAttempt>(`/quizzes/${quizId}/`)
}

/**
 * Told which answers of a save the server dropped: their timed section was closed or not yet open (API.md "Papers").
 * The server's `dropped` names every question of which anything was dropped; a mark, a visit or the seconds spent
 * on the last question of a section just closed are nothing a learner lost, so only answers are told.
 */
const droppedListeners = new Set<{ quizId: number; listener: (questionIds: number[]) => void }>()
export function onDroppedAnswers(quizId: number, listener: (questionIds: number[]) => void) {
  const entry = { quizId, listener }
  droppedListeners.add(entry)
  return () => void droppedListeners.delete(entry)
}

/** One autosave: answers, marks, visits and seconds (API.md "Exam feel"); any part may be absent. */
export async function saveAnswers(quizId: number, batch: SaveAnswersBody, signal?: AbortSignal) {
  const result = await api.put<SaveAnswersResult & { dropped?: number[] }>(`/quizzes/${quizId}/answers/`, batch, {
    signal,
  })
  const answered = batch.answers ?? {}
  const lost = result?.dropped?.filter((id) => Object.hasOwn(answered, String(id))) ?? []
  if (lost.length) {
    for (const entry of droppedListeners) if (entry.quizId === quizId) entry.listener(lost)
  }
  return result
}

/** Closes the open timed section early; the answer is the attempt's sections, the next one now open. */
export function nextSection(quizId: number) {
  return api.post<{ sections: AttemptSection[] }>(`/quizzes/${quizId}/sections/next/`)
}

export function submitQuiz(quizId: number, body: SubmitAttemptBody) {
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
