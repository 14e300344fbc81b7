/** Every in-app URL is built here: never hand-build a route string in a page. */
export const paths = {
  home: () => '/',
  login: () => '/login',
  register: () => '/register',
  forgotPassword: () => '/forgot-password',
  resetPassword: (phone?: string) => (phone ? `/reset-password?phone=${encodeURIComponent(phone)}` : '/reset-password'),
  quizInstructions: (id: number | string) => `/quiz/${id}/instructions`,
  quiz: (id: number | string) => `/quiz/${id}`,
  leaderboard: (quizId: number | string) => `/quiz/${quizId}/leaderboard`,
  results: () => '/results',
  report: (attemptId: number | string) => `/results/${attemptId}`,
  progress: () => '/progress',
  practice: () => '/practice',
  profile: () => '/profile',
  plans: () => '/plans',
  payment: (id: number | string) => `/payments/${id}`,
  notifications: () => '/notifications',
  admin: () => '/admin',
  adminNewQuiz: () => '/admin/quiz/new',
  /** The details form that makes a draft; adminNewQuiz is the paste of a whole quiz as JSON. */
  adminCreateQuiz: () => '/admin/quiz/create',
  adminEditQuiz: (id: number | string) => `/admin/quiz/${id}/edit`,
  adminQuizAttempts: (id: number | string) => `/admin/quiz/${id}/attempts`,
  adminQuizStatistics: (id: number | string) => `/admin/quiz/${id}/statistics`,
  adminLearners: () => '/admin/learners',
  adminMembers: () => '/admin/members',
  adminPlans: () => '/admin/plans',
  adminInstituteSettings: () => '/admin/institute',
  adminPayments: () => '/admin/payments',
  adminAudit: () => '/admin/audit',
  adminBank: () => '/admin/bank',
  adminBankPassages: () => '/admin/bank/passages',
  adminPlatformBank: () => '/admin/platform-bank',
  adminNationalMocks: () => '/admin/national-mocks',
  adminDailySet: () => '/admin/daily-set',
  /** The platform admins' own screens, on the platform's address (API.md "Platform admins"). */
  platform: () => '/platform',
  adminQuizPaper: (id: number | string) => `/admin/quiz/${id}/paper`,
  adminImport: () => '/admin/import',
  adminFontConverter: () => '/admin/font-converter',
  /** The bank showing only these questions (an import's committed ones). */
  adminBankIds: (ids: readonly number[]) => `/admin/bank?ids=${ids.join(',')}`,
  adminKeyChallenges: () => '/admin/key-challenges',
  adminQuizSittings: (quizId: number | string) => `/admin/quiz/${quizId}/sittings`,
  adminSitting: (id: number | string) => `/admin/sittings/${id}`,
  adminSittingPaper: (id: number | string) => `/admin/sittings/${id}/print/paper`,
  adminSittingSheets: (id: number | string) => `/admin/sittings/${id}/print/sheets`,
  adminSittingBooklets: (id: number | string) => `/admin/sittings/${id}/print/booklets`,
  adminSittingScan: (id: number | string) => `/admin/sittings/${id}/scan`,
  adminSittingReview: (id: number | string) => `/admin/sittings/${id}/review`,
  adminQuizMarking: (quizId: number | string) => `/admin/quiz/${quizId}/marking`,
  /** Markers' own way in: they see no admin screen, so they open a quiz's marking by its number. */
  marking: () => '/marking',
  markingQuiz: (quizId: number | string) => `/marking/quiz/${quizId}`,
  markQuestion: (quizId: number | string, questionId: number | string) =>
    `/marking/quiz/${quizId}/question/${questionId}`,
  /** One answer opened by id: an accepted regrade request's answer, marked again. */
  markAnswer: (quizId: number | string, answerId: number | string) => `/marking/quiz/${quizId}/answer/${answerId}`,
  /** A report card's written answer (the report page scrolls to it). */
  writtenResult: (attemptId: number | string, questionId: number | string) =>
    `/results/${attemptId}#written-${questionId}`,
}

/** The parameters the routes name, as the pages read them (useRouteId). */
export type RouteParam = 'quizId' | 'attemptId' | 'paymentId' | 'sittingId' | 'questionId' | 'answerId'
const param = (name: RouteParam) => `:${name}`

/** The router's patterns (app/routes.tsx): the builders above given their parameters' names, so the two never drift. */
export const patterns = {
  quizInstructions: paths.quizInstructions(param('quizId')),
  quiz: paths.quiz(param('quizId')),
  leaderboard: paths.leaderboard(param('quizId')),
  report: paths.report(param('attemptId')),
  payment: paths.payment(param('paymentId')),
  adminEditQuiz: paths.adminEditQuiz(param('quizId')),
  adminQuizAttempts: paths.adminQuizAttempts(param('quizId')),
  adminQuizStatistics: paths.adminQuizStatistics(param('quizId')),
  adminQuizPaper: paths.adminQuizPaper(param('quizId')),
  adminQuizSittings: paths.adminQuizSittings(param('quizId')),
  adminSitting: paths.adminSitting(param('sittingId')),
  adminSittingPaper: paths.adminSittingPaper(param('sittingId')),
  adminSittingSheets: paths.adminSittingSheets(param('sittingId')),
  adminSittingBooklets: paths.adminSittingBooklets(param('sittingId')),
  adminSittingScan: paths.adminSittingScan(param('sittingId')),
  adminSittingReview: paths.adminSittingReview(param('sittingId')),
  adminQuizMarking: paths.adminQuizMarking(param('quizId')),
  markingQuiz: paths.markingQuiz(param('quizId')),
  markQuestion: paths.markQuestion(param('quizId'), param('questionId')),
  markAnswer: paths.markAnswer(param('quizId'), param('answerId')),
}
