import type { RouteObject } from 'react-router'
import { RouteError } from '../components/error-fallback'
import { Layout } from '../components/layout/layout'
import type { ScreenHandle } from '../components/layout/screen-title'
import { loadSignedInNav } from '../components/layout/top-nav'
import { paths, patterns } from '../lib/paths'
import { RequireAdmin, RequireAuth, RequireMarker, RequireVisitor } from '../session/guards'

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
          { path: paths.login(), lazy: () => import('../features/auth/login-page') },
          { path: paths.register(), lazy: () => import('../features/auth/register-page') },
          { path: paths.forgotPassword(), lazy: () => import('../features/auth/forgot-password-page') },
          { path: paths.resetPassword(), lazy: () => import('../features/auth/reset-password-page') },
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
              { path: paths.home(), lazy: () => import('../features/dashboard/dashboard-page') },
              {
                path: patterns.quizInstructions,
                lazy: () => import('../features/quiz/instructions-page'),
                handle: screen('instructions'),
              },
              { path: patterns.quiz, lazy: () => import('../features/quiz/quiz-page'), handle: screen('exam') },
              { path: patterns.leaderboard, lazy: () => import('../features/live/leaderboard-page') },
              { path: paths.results(), lazy: () => import('../features/results/results-page') },
              {
                path: patterns.report,
                lazy: () => import('../features/results/report-page'),
                handle: screen('report'),
              },
              { path: paths.progress(), lazy: () => import('../features/progress/progress-page') },
              { path: paths.practice(), lazy: () => import('../features/practice/practice-page') },
              { path: paths.profile(), lazy: () => import('../features/profile/profile-page') },
              { path: paths.plans(), lazy: () => import('../features/payments/plans-page') },
              { path: patterns.payment, lazy: () => import('../features/payments/payment-page') },
              { path: paths.notifications(), lazy: () => import('../features/notifications/notifications-page') },
            ],
          },
          // The platform admins' screens and the landing of "Act as admin": one chunk that checks its own session.
          { path: `${paths.platform()}/*`, lazy: () => import('../features/admin/platform/platform-screens') },
          {
            // Admins and markers: a marker reaches these and no other admin screen.
            element: <RequireMarker />,
            children: [
              { path: paths.marking(), lazy: () => import('../features/marking/marking-home-page') },
              { path: patterns.markingQuiz, lazy: () => import('../features/marking/marking-quiz-page') },
              { path: patterns.markQuestion, lazy: () => import('../features/marking/marking-page') },
              { path: patterns.markAnswer, lazy: () => import('../features/marking/marking-answer-page') },
            ],
          },
          {
            element: <RequireAdmin />,
            children: [
              { path: patterns.adminQuizMarking, lazy: () => import('./marking-tab-page') },
              { path: paths.admin(), lazy: () => import('../features/admin/quizzes/admin-page') },
              { path: paths.adminNewQuiz(), lazy: () => import('../features/admin/quizzes/quiz-create-page') },
              { path: paths.adminCreateQuiz(), lazy: () => import('../features/admin/quizzes/quiz-new-page') },
              { path: patterns.adminEditQuiz, lazy: () => import('../features/admin/quizzes/quiz-edit-page') },
              {
                path: patterns.adminQuizAttempts,
                lazy: () => import('../features/admin/reports/quiz-attempts-page'),
              },
              // Its own chunk: the statistics and the histogram load only when this tab opens.
              {
                path: patterns.adminQuizStatistics,
                lazy: () => import('../features/admin/reports/quiz-statistics-page'),
              },
              {
                path: paths.adminLearners(),
                lazy: () => import('../features/admin/people/learners-page'),
              },
              { path: paths.adminMembers(), lazy: () => import('../features/admin/people/members-page') },
              { path: paths.adminPlans(), lazy: () => import('../features/admin/billing/plans-page') },
              {
                path: paths.adminInstituteSettings(),
                lazy: () => import('../features/admin/institute/settings-page'),
              },
              { path: paths.adminPayments(), lazy: () => import('../features/admin/billing/payments-page') },
              { path: paths.adminAudit(), lazy: () => import('../features/admin/reports/audit-log-page') },
              { path: paths.adminDailySet(), lazy: () => import('../features/admin/daily/daily-set-page') },
              { path: paths.adminBank(), lazy: () => import('../features/admin/bank/bank-page') },
              { path: paths.adminBankPassages(), lazy: () => import('../features/admin/bank/passages-page') },
              {
                path: paths.adminPlatformBank(),
                lazy: () => import('../features/admin/platform-bank/platform-bank-page'),
              },
              {
                path: paths.adminNationalMocks(),
                lazy: () => import('../features/admin/national/national-mocks-page'),
              },
              {
                path: paths.adminKeyChallenges(),
                lazy: () => import('../features/admin/challenges/key-challenges-page'),
              },
              { path: patterns.adminQuizPaper, lazy: () => import('../features/admin/paper/paper-page') },
              {
                path: patterns.adminQuizSittings,
                lazy: () => import('../features/admin/sittings/sittings-page'),
              },
              { path: patterns.adminSitting, lazy: () => import('../features/admin/sittings/sitting-page') },
              {
                path: patterns.adminSittingPaper,
                lazy: () => import('../features/admin/sittings/print-paper-page'),
              },
              {
                path: patterns.adminSittingSheets,
                lazy: () => import('../features/admin/sittings/print-sheets-page'),
              },
              {
                path: patterns.adminSittingBooklets,
                lazy: () => import('../features/admin/sittings/print-booklets-page'),
              },
              { path: patterns.adminSittingScan, lazy: () => import('../features/admin/sittings/scan-page') },
              { path: patterns.adminSittingReview, lazy: () => import('../features/admin/sittings/review-page') },
              { path: paths.adminImport(), lazy: () => import('../features/admin/import/import-page') },
              {
                path: paths.adminFontConverter(),
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
