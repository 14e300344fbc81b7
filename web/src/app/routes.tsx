import type { RouteObject } from 'react-router'
import { RouteError } from '../components/error-fallback'
import { Layout } from '../components/layout/layout'
import type { ScreenHandle } from '../components/layout/screen-title'
import { loadSignedInNav } from '../components/layout/top-nav'
import { RequireAdmin, RequireAuth, RequireVisitor } from '../session/guards'

// A screen whose heading alone does not say what it is (the report card's is the quiz's title) names itself.
const screen = (name: 'instructions' | 'exam' | 'report'): ScreenHandle => ({ screen: `nav:screens.${name}` })

// Every page is its own lazy chunk: the first screen loads only the shell and the page it shows. The browser's
// router is made from these in main.tsx; the build renders the visitor screens from them too (prerender.tsx).
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      {
        element: <RequireVisitor />,
        children: [
          { path: '/login', lazy: () => import('../features/auth/login-page') },
          { path: '/register', lazy: () => import('../features/auth/register-page') },
          { path: '/forgot-password', lazy: () => import('../features/auth/forgot-password-page') },
          { path: '/reset-password', lazy: () => import('../features/auth/reset-password-page') },
        ],
      },
      {
        // Every signed-in screen reads the server through TanStack Query: it comes with them, and so does the
        // nav's signed-in part (which reads plans and the practice deck), so neither is fetched for a visitor.
        lazy: () =>
          Promise.all([import('../api/with-queries'), loadSignedInNav()]).then(([queries]) => ({
            Component: queries.QueriesRoute,
          })),
        children: [
          {
            element: <RequireAuth />,
            children: [
              { path: '/', lazy: () => import('../features/dashboard/dashboard-page') },
              {
                path: '/quiz/:quizId/instructions',
                lazy: () => import('../features/quiz/instructions-page'),
                handle: screen('instructions'),
              },
              { path: '/quiz/:quizId', lazy: () => import('../features/quiz/quiz-page'), handle: screen('exam') },
              { path: '/quiz/:quizId/leaderboard', lazy: () => import('../features/live/leaderboard-page') },
              { path: '/results', lazy: () => import('../features/results/results-page') },
              {
                path: '/results/:attemptId',
                lazy: () => import('../features/results/report-page'),
                handle: screen('report'),
              },
              { path: '/progress', lazy: () => import('../features/progress/progress-page') },
              { path: '/practice', lazy: () => import('../features/practice/practice-page') },
              { path: '/profile', lazy: () => import('../features/profile/profile-page') },
              { path: '/plans', lazy: () => import('../features/payments/plans-page') },
              { path: '/payments/:paymentId', lazy: () => import('../features/payments/payment-page') },
              { path: '/notifications', lazy: () => import('../features/notifications/notifications-page') },
            ],
          },
          {
            element: <RequireAdmin />,
            children: [
              { path: '/admin', lazy: () => import('../features/admin/quizzes/admin-page') },
              { path: '/admin/quiz/new', lazy: () => import('../features/admin/quizzes/quiz-create-page') },
              { path: '/admin/quiz/create', lazy: () => import('../features/admin/quizzes/quiz-new-page') },
              { path: '/admin/quiz/:quizId/edit', lazy: () => import('../features/admin/quizzes/quiz-edit-page') },
              {
                path: '/admin/quiz/:quizId/attempts',
                lazy: () => import('../features/admin/reports/quiz-attempts-page'),
              },
              // Its own chunk: the statistics and the histogram load only when this tab opens.
              {
                path: '/admin/quiz/:quizId/statistics',
                lazy: () => import('../features/admin/reports/quiz-statistics-page'),
              },
              {
                path: '/admin/learners',
                lazy: () => import('../features/admin/people/learners-page'),
              },
              { path: '/admin/plans', lazy: () => import('../features/admin/billing/plans-page') },
              { path: '/admin/payments', lazy: () => import('../features/admin/billing/payments-page') },
              { path: '/admin/audit', lazy: () => import('../features/admin/reports/audit-log-page') },
              { path: '/admin/bank', lazy: () => import('../features/admin/bank/bank-page') },
              {
                path: '/admin/key-challenges',
                lazy: () => import('../features/admin/challenges/key-challenges-page'),
              },
              { path: '/admin/quiz/:quizId/paper', lazy: () => import('../features/admin/paper/paper-page') },
              { path: '/admin/import', lazy: () => import('../features/admin/import/import-page') },
              {
                path: '/admin/font-converter',
                lazy: () => import('../features/admin/font-converter/font-converter-page'),
              },
            ],
          },
        ],
      },
      { path: '*', lazy: () => import('../components/not-found-page') },
    ],
  },
]
