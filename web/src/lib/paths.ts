import { useParams } from 'react-router'

/** Every in-app URL is built here: never hand-build a route string in a page. */
export const paths = {
  home: () => '/',
  login: () => '/login',
  register: () => '/register',
  forgotPassword: () => '/forgot-password',
  resetPassword: (phone?: string) => (phone ? `/reset-password?phone=${encodeURIComponent(phone)}` : '/reset-password'),
  quizInstructions: (id: number | string) => `/quiz/${id}/instructions`,
  quiz: (id: number | string) => `/quiz/${id}`,
  results: () => '/results',
  report: (attemptId: number | string) => `/results/${attemptId}`,
  progress: () => '/progress',
  practice: () => '/practice',
  profile: () => '/profile',
  plans: () => '/plans',
  payment: (id: number | string) => `/payments/${id}`,
  admin: () => '/admin',
  adminNewQuiz: () => '/admin/quiz/new',
  adminEditQuiz: (id: number | string) => `/admin/quiz/${id}/edit`,
  adminQuizAttempts: (id: number | string) => `/admin/quiz/${id}/attempts`,
  adminQuizStatistics: (id: number | string) => `/admin/quiz/${id}/statistics`,
  adminLearners: () => '/admin/learners',
  adminPlans: () => '/admin/plans',
  adminPayments: () => '/admin/payments',
  adminAudit: () => '/admin/audit',
  adminBank: () => '/admin/bank',
  adminQuizPaper: (id: number | string) => `/admin/quiz/${id}/paper`,
}

/** The largest id the database hands out (a PostgreSQL integer). */
const MAX_ID = 2_147_483_647

/** An id written in a URL, or null when it is not a positive 32-bit integer ("7", never "7x", "-7" or "1e3"). */
export function parseId(value: string | null | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null
  const id = Number(value)
  return id > 0 && id <= MAX_ID ? id : null
}

/** The route's `:name` parameter as an id (parseId): every page reads its ids this one way. */
export function useRouteId(name: string): number | null {
  return parseId(useParams()[name])
}
