// Response shapes come from the contracts as types only (zod stays out of the web bundle).
import type {
  AdminQuestion,
  AdminQuizDetail,
  AdminQuiz as AdminQuizSummary,
  Bilingual,
  Difficulty,
  AdminImage as NullableAdminImage,
} from '@quiz/contracts'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { availableQuizKeys } from '../../../api/available-quizzes'
import { api } from '../../../api/client'
import { adminKeys, useInvalidate } from '../admin-keys'

export type { AdminQuestion, AdminQuizSummary, Bilingual, Difficulty }
export type AdminQuiz = AdminQuizDetail
export type AdminImage = NonNullable<NullableAdminImage>

/**
 * What the details form sends: every field, as typed. An emptied number or start time goes as null, and the
 * server's field message for it shows beside the field.
 */
export interface QuizDetailsPayload {
  title: Bilingual
  start_time: string | null
  end_time: string | null
  duration_minutes: number | null
  allowed_attempts: number | null
  difficulty: Difficulty
  is_paid_tier: boolean
  shuffle_questions: boolean
  shuffle_options: boolean
  challenge_days: number | null
  upload_grace_minutes: number | null
  /** null makes the quiz an ordinary one (again). */
  live: { starts_at: string | null; join_minutes: number | null } | null
}

/**
 * An image as sent: an SVG drawing or a picture (API.md "Pictures in questions": a new one as a data URL, a stored
 * one by its url), and its caption's TeX source only (the server renders it).
 */
export interface ImagePayload {
  svg?: string
  picture?: string | { url: string }
  caption: Bilingual
}

export type QuestionType = 'choice' | 'multiple' | 'numeric' | 'written'

export interface QuestionPayload {
  /** Absent or `choice`: options, one correct; `written`: no options, marks, a word limit and a model answer. */
  type?: QuestionType
  /** A numeric question's accepted answer and the decimals a learner may type (API.md "Question types"). */
  answer?: { value: number | null; tolerance: number | null } | { min: number | null; max: number | null }
  decimals?: number | null
  marks?: number | null
  word_limit?: number | null
  model_answer?: Bilingual | null
  text: Bilingual
  hint: Bilingual | null
  topic: string
  image: ImagePayload | null
  options: { text: Bilingual; is_correct: boolean; image: ImagePayload | null }[]
  /** The bank's fields (API.md "Question bank"). */
  tags?: string[]
  difficulty?: Difficulty | null
  source?: string | null
}

export const adminQueries = {
  list: () =>
    queryOptions({ queryKey: adminKeys.quizList(), queryFn: () => api.get<AdminQuizSummary[]>('/admin/quizzes/') }),
  quiz: (id: number) =>
    queryOptions({ queryKey: adminKeys.quiz(id), queryFn: () => api.get<AdminQuiz>(`/admin/quizzes/${id}/`) }),
}

// A quiz change shows in the admin's list and in the learners' list (an admin may take quizzes too); a change to
// a quiz or its questions also in its details, attempts and statistics.

export function useCreateQuizFromJson() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (quiz: unknown) => api.post<{ quiz_id: number }>('/quizzes/create-from-json/', quiz),
    onSuccess: () => invalidate(adminKeys.quizList(), availableQuizKeys.all),
  })
}

export function useDeleteQuiz() {
  const invalidate = useInvalidate()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (quizId: number) => api.delete(`/admin/quizzes/${quizId}/`),
    onSuccess: (_data, quizId) => {
      queryClient.removeQueries({ queryKey: adminKeys.quiz(quizId) })
      return invalidate(adminKeys.quizList(), availableQuizKeys.all)
    },
  })
}

export function useUpdateQuizDetails(quizId: number) {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (details: QuizDetailsPayload) => api.patch<AdminQuiz>(`/admin/quizzes/${quizId}/`, details),
    onSuccess: () => invalidate(adminKeys.quiz(quizId), adminKeys.quizList(), availableQuizKeys.all),
  })
}

/** The platform bank's queries' common key (platform-bank.api.ts). */
const PLATFORM_BANK_KEY = ['platform-bank'] as const

/** Where a bank question is written: the institute's bank, or the platform's (its admins', API.md "Banks"). */
export type BankBase = '/admin/bank/questions/' | '/platform/bank/questions/'

/**
 * A quiz's question, or with `quizId` null a bank question (which may be in any quiz's paper) of the bank at
 * `bankBase`: the platform's bank takes the same bodies at its own address.
 */
export function useSaveQuestion(quizId: number | null, bankBase: BankBase = '/admin/bank/questions/') {
  const invalidate = useInvalidate()
  const base = quizId === null ? bankBase : `/admin/quizzes/${quizId}/questions/`
  return useMutation({
    mutationFn: ({ questionId, question }: { questionId: number | null; question: QuestionPayload }) =>
      questionId === null
        ? api.post<AdminQuestion>(base, question)
        : api.put<AdminQuestion>(`${base}${questionId}/`, question),
    onSuccess: () =>
      bankBase === '/platform/bank/questions/'
        ? invalidate(PLATFORM_BANK_KEY)
        : quizId === null
          ? invalidate(adminKeys.bank, adminKeys.quizzes, availableQuizKeys.all)
          : invalidate(adminKeys.quiz(quizId), adminKeys.quizList(), adminKeys.bank, availableQuizKeys.all),
  })
}

export function useDeleteQuestion(quizId: number) {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (questionId: number) => api.delete(`/admin/quizzes/${quizId}/questions/${questionId}/`),
    onSuccess: () => invalidate(adminKeys.quiz(quizId), adminKeys.quizList(), availableQuizKeys.all),
  })
}

/** `POST /api/admin/quizzes/`: the details form's fields; the answer is a draft with no questions. */
export function useCreateQuiz() {
  const invalidate = useInvalidate()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (details: QuizDetailsPayload) => api.post<AdminQuiz>('/admin/quizzes/', details),
    onSuccess: (quiz) => {
      queryClient.setQueryData(adminKeys.quiz(quiz.id), quiz)
      return invalidate(adminKeys.quizList())
    },
  })
}

export type StatusAction = 'publish' | 'unpublish' | 'duplicate'

/**
 * Publish, unpublish (the answer is the quiz) or duplicate (the answer is its new draft copy). Learners' lists
 * change with the first two.
 */
export function useQuizStatusAction(quizId: number) {
  const invalidate = useInvalidate()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (action: StatusAction) => api.post<AdminQuiz>(`/admin/quizzes/${quizId}/${action}/`),
    onSuccess: (quiz) => {
      queryClient.setQueryData(adminKeys.quiz(quiz.id), quiz)
      return invalidate(adminKeys.quizList(), availableQuizKeys.all)
    },
  })
}
