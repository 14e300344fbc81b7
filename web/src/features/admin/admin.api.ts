// Response shapes come from the contracts as types only (zod stays out of the web bundle).
import type {
  AdminPayment,
  AdminPaymentPage,
  PaymentStatus,
  Plan,
  AdminQuestion,
  AdminQuizDetail,
  AdminQuiz as AdminQuizSummary,
  Bilingual,
  Difficulty,
  AdminImage as NullableAdminImage,
} from '@quiz/contracts'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'

export type {
  AdminQuestion,
  AdminQuizSummary,
  Bilingual,
  Difficulty,
  AdminPayment,
  AdminPaymentPage,
  PaymentStatus,
  Plan,
}
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
}

export interface QuestionPayload {
  text: Bilingual
  hint: Bilingual | null
  topic: string
  image: AdminImage | null
  options: { text: Bilingual; is_correct: boolean; image: AdminImage | null }[]
}

export const adminKeys = {
  all: ['admin', 'quizzes'] as const,
  list: () => [...adminKeys.all, 'list'] as const,
  quiz: (id: number) => [...adminKeys.all, id] as const,
}

export const adminQueries = {
  list: () =>
    queryOptions({ queryKey: adminKeys.list(), queryFn: () => api.get<AdminQuizSummary[]>('/admin/quizzes/') }),
  quiz: (id: number) =>
    queryOptions({ queryKey: adminKeys.quiz(id), queryFn: () => api.get<AdminQuiz>(`/admin/quizzes/${id}/`) }),
}

/**
 * Admin edits change what every screen may show (the learner's quiz list too, for an admin who also takes
 * quizzes), so everything cached goes stale; only the queries on screen refetch now.
 */
function useInvalidateAll() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries()
}

export function useCreateQuizFromJson() {
  const invalidate = useInvalidateAll()
  return useMutation({
    mutationFn: (quiz: unknown) => api.post<{ quiz_id: number }>('/quizzes/create-from-json/', quiz),
    onSuccess: () => invalidate(),
  })
}

export function useDeleteQuiz() {
  const invalidate = useInvalidateAll()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (quizId: number) => api.delete(`/admin/quizzes/${quizId}/`),
    onSuccess: (_data, quizId) => {
      queryClient.removeQueries({ queryKey: adminKeys.quiz(quizId) })
      return invalidate()
    },
  })
}

export function useUpdateQuizDetails(quizId: number) {
  const invalidate = useInvalidateAll()
  return useMutation({
    mutationFn: (details: QuizDetailsPayload) => api.patch<AdminQuiz>(`/admin/quizzes/${quizId}/`, details),
    onSuccess: () => invalidate(),
  })
}

export function useSaveQuestion(quizId: number) {
  const invalidate = useInvalidateAll()
  return useMutation({
    mutationFn: ({ questionId, question }: { questionId: number | null; question: QuestionPayload }) =>
      questionId === null
        ? api.post<AdminQuestion>(`/admin/quizzes/${quizId}/questions/`, question)
        : api.put<AdminQuestion>(`/admin/quizzes/${quizId}/questions/${questionId}/`, question),
    onSuccess: () => invalidate(),
  })
}

export function useDeleteQuestion(quizId: number) {
  const invalidate = useInvalidateAll()
  return useMutation({
    mutationFn: (questionId: number) => api.delete(`/admin/quizzes/${quizId}/questions/${questionId}/`),
    onSuccess: () => invalidate(),
  })
}

// Plans and payments (API.md "Paid access").

export interface PlanPayload {
  name: Bilingual
  price_paisa: number
  days: number
  active: boolean
}

export const adminPlanKeys = {
  plans: ['admin', 'plans'] as const,
  payments: (status: PaymentStatus | null, page: number) => ['admin', 'payments', status, page] as const,
}

export const adminPlanQueries = {
  plans: () => queryOptions({ queryKey: adminPlanKeys.plans, queryFn: () => api.get<Plan[]>('/admin/plans/') }),
  payments: (status: PaymentStatus | null, page: number) =>
    queryOptions({
      queryKey: adminPlanKeys.payments(status, page),
      queryFn: () => api.get<AdminPaymentPage>(`/admin/payments/?page=${page}${status ? `&status=${status}` : ''}`),
    }),
}

export function useSavePlan() {
  const invalidate = useInvalidateAll()
  return useMutation({
    mutationFn: ({ id, plan }: { id: number | null; plan: PlanPayload }) =>
      id === null ? api.post<Plan>('/admin/plans/', plan) : api.patch<Plan>(`/admin/plans/${id}/`, plan),
    onSuccess: () => invalidate(),
  })
}

// Institutions: attempts, statistics, learners (API.md "Institutions").

export type {
  AdminUser,
  AdminUserPage,
  AttemptSelection,
  AuditAction,
  AuditEntityType,
  AuditPage,
  QuestionFlag,
  QuestionStatistics,
  QuizAttemptPage,
  QuizAttemptRow,
  QuizStatistics,
  StatisticsSelection,
} from '@quiz/contracts'
import type {
  AdminUser,
  AdminUserPage,
  AttemptSelection,
  AuditAction,
  AuditEntityType,
  AuditPage,
  QuizAttemptPage,
  QuizStatistics,
  StatisticsSelection,
} from '@quiz/contracts'

export const ATTEMPTS_PAGE_SIZE = 50
export const LEARNERS_PAGE_SIZE = 50
export const AUDIT_PAGE_SIZE = 50

/** The audit log's filters as the page holds them; empty strings mean "any". */
export interface AuditFilters {
  actor: string
  entity_type: AuditEntityType | ''
  action: AuditAction | ''
  /** ISO instants: from inclusive, to exclusive. */
  from: string
  to: string
}
/** A 50,000-attempt CSV is about 15 MB: more than the default 15 s allow on a slow connection. */
const CSV_TIMEOUT_MS = 300_000

export const institutionKeys = {
  attempts: (quizId: number, which: AttemptSelection, page: number) =>
    ['admin', 'quizzes', quizId, 'attempts', which, page] as const,
  statistics: (quizId: number, which: StatisticsSelection) =>
    ['admin', 'quizzes', quizId, 'statistics', which] as const,
  learners: (search: string, page: number) => ['admin', 'users', search, page] as const,
  audit: (filters: AuditFilters, page: number) => ['admin', 'audit', filters, page] as const,
}

export const institutionQueries = {
  attempts: (quizId: number, which: AttemptSelection, page: number) =>
    queryOptions({
      queryKey: institutionKeys.attempts(quizId, which, page),
      queryFn: () =>
        api.get<QuizAttemptPage>(
          `/admin/quizzes/${quizId}/attempts/?which=${which}&page=${page}&page_size=${ATTEMPTS_PAGE_SIZE}`,
        ),
    }),
  statistics: (quizId: number, which: StatisticsSelection) =>
    queryOptions({
      queryKey: institutionKeys.statistics(quizId, which),
      queryFn: () => api.get<QuizStatistics>(`/admin/quizzes/${quizId}/statistics/?which=${which}`),
    }),
  learners: (search: string, page: number) =>
    queryOptions({
      queryKey: institutionKeys.learners(search, page),
      queryFn: () =>
        api.get<AdminUserPage>(
          `/admin/users/?search=${encodeURIComponent(search)}&page=${page}&page_size=${LEARNERS_PAGE_SIZE}`,
        ),
    }),
  audit: (filters: AuditFilters, page: number) =>
    queryOptions({
      queryKey: institutionKeys.audit(filters, page),
      queryFn: () => {
        const query = new URLSearchParams({ page: String(page), page_size: String(AUDIT_PAGE_SIZE) })
        for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value)
        return api.get<AuditPage>(`/admin/audit/?${query}`)
      },
    }),
}

/** The CSV needs the bearer token, so a plain link cannot fetch it: fetch it, then hand the file to the browser. */
export async function downloadAttemptsCsv(quizId: number, which: AttemptSelection) {
  const file = await api.blob(`/admin/quizzes/${quizId}/attempts.csv?which=${which}`, { timeoutMs: CSV_TIMEOUT_MS })
  const url = URL.createObjectURL(file)
  const link = document.createElement('a')
  link.href = url
  link.download = `quiz-${quizId}-attempts-${which}.csv`
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked on the next task: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

export interface LearnerPatch {
  has_paid_access?: boolean
  paid_access_until?: string | null
  extra_time_percent?: number
}

export function useUpdateLearner() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: LearnerPatch }) =>
      api.patch<AdminUser>(`/admin/users/${id}/`, patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'users'] }),
  })
}
