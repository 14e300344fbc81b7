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
  profile: () => '/profile',
  admin: () => '/admin',
  adminNewQuiz: () => '/admin/quiz/new',
  adminEditQuiz: (id: number | string) => `/admin/quiz/${id}/edit`,
}
