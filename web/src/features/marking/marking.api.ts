import type {
  EvaluationInput,
  MarkingAnswer,
  MarkingOverview,
  MarkingQuizzes,
  RegradeDecisionInput,
  RegradeQueue,
  RegradeQueueEntry,
  RegradeStatus,
} from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from '../../api/client'

// Wire shapes of API.md "Written answers marked by rubric", Marking: types only from the contracts.
export type {
  EvaluationInput,
  MarkingAnswer,
  MarkingOverview,
  MarkingQuiz,
  MarkingQuizzes,
  RegradeQueue,
  RegradeQueueEntry,
  RegradeStatus,
} from '@quiz/contracts'
export type MarkingRubric = MarkingAnswer['rubric']
export type RubricItem = MarkingRubric['items'][number]

export const markingKeys = {
  quizzes: ['marking', 'quizzes'] as const,
  overview: (quizId: number) => ['marking', quizId] as const,
  regrades: (quizId: number) => ['marking', quizId, 'regrades'] as const,
  answer: (answerId: number) => ['marking', 'answer', answerId] as const,
}

export const markingQueries = {
  /** A marker's way in: the quizzes with written answers, newest activity first. */
  quizzes: (page: number) =>
    queryOptions({
      queryKey: [...markingKeys.quizzes, page],
      queryFn: ({ signal }) => api.get<MarkingQuizzes>(`/admin/marking/?page=${page}`, { signal }),
      staleTime: 0,
    }),
  // Counts move while others mark: read again whenever the tab comes back into view.
  overview: (quizId: number) =>
    queryOptions({
      queryKey: markingKeys.overview(quizId),
      queryFn: ({ signal }) => api.get<MarkingOverview>(`/admin/quizzes/${quizId}/marking/`, { signal }),
      staleTime: 0,
    }),
  /** The quiz's regrade requests in one state (the server shows a marker only those of the questions they mark). */
  regrades: (quizId: number, status: RegradeStatus, page: number) =>
    queryOptions({
      queryKey: [...markingKeys.regrades(quizId), status, page],
      queryFn: ({ signal }) =>
        api.get<RegradeQueue>(`/admin/regrades/?status=${status}&quiz_id=${quizId}&page=${page}`, { signal }),
      staleTime: 0,
    }),
  /** One answer opened by id, without a claim: an accepted regrade's answer is marked again by whoever decided it. */
  answer: (answerId: number) =>
    queryOptions({
      queryKey: markingKeys.answer(answerId),
      queryFn: ({ signal }) => api.get<MarkingAnswer>(`/admin/written-answers/${answerId}/`, { signal }),
      staleTime: 0,
      gcTime: 0,
    }),
}

export const decideRegrade = (requestId: number, body: RegradeDecisionInput) =>
  api.patch<RegradeQueueEntry>(`/admin/regrades/${requestId}/`, body)

/** The next answer of a question, claimed for this marker for 10 minutes; undefined (204) when none is left. */
export const nextAnswer = (quizId: number, questionId: number) =>
  api.post<MarkingAnswer | undefined>(`/admin/quizzes/${quizId}/marking/${questionId}/next/`)

export const saveEvaluation = (answerId: number, body: EvaluationInput) =>
  api.put<{ score: number }>(`/admin/written-answers/${answerId}/evaluation/`, body)

export const releaseMarks = (quizId: number, questionIds?: number[]) =>
  api.post<{ released: number }>(
    `/admin/quizzes/${quizId}/marking/release/`,
    questionIds ? { question_ids: questionIds } : {},
  )

/** Gives an answer back to the queue (the marker leaves the screen without saving it). */
export const endClaim = (answerId: number) => api.delete(`/admin/written-answers/${answerId}/claim/`)
