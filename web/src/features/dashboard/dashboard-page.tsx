import type { QuizListItem } from '@quiz/contracts'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { availableQuizzesQuery } from '../../api/available-quizzes'
import { dailyTodayQuery } from '../../api/daily'
import { LanguageToggle } from '../../components/layout/language-switcher'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { sessionStore } from '../../session/session-store'
import { useSessionUser } from '../../session/use-session'
import './dashboard.css'
import { QuizCard } from './quiz-card'
import { livePhase, liveStartState } from '../../lib/live-mock'
import { useLiveClock } from '../../api/use-live-clock'
import { liveFirst } from './live-order'
import { PaperResults } from './paper-results'
import './dashboard.i18n'

// Today's set (WEB.md "The daily set"): its card's code and texts come only when a set is out, and neither its data
// nor its code holds up the quiz list (the learner's first screen budget, web/scripts/report-size.mjs).
const DailyCard = lazy(() => import('./daily-card').then((module) => ({ default: module.DailyCard })))

/** How often to ask again while a live mock has started on this device's clock but not yet on the server's. */
const SERVER_CLOCK_POLL_MS = 10_000

function waitingOnServer(quizzes: QuizListItem[] | undefined) {
  const now = Date.now()
  return (quizzes ?? []).some((quiz) => {
    if (!quiz.live) return false
    const phase = livePhase(quiz.live, now)
    return phase === 'open' && liveStartState(quiz, phase, now) === 'wait'
  })
}

export function Component() {
  const { t } = useTranslation('dashboard')
  // Re-read on every session change (another tab logging out removes the token under us).
  useSessionUser()
  const hasToken = sessionStore.accessToken() !== null
  const quizzes = useQuery({
    ...availableQuizzesQuery(),
    enabled: hasToken,
    refetchInterval: (query) => (waitingOnServer(query.state.data) ? SERVER_CLOCK_POLL_MS : false),
  })
  const now = useLiveClock(quizzes.data)
  // A failed or disabled daily set leaves the dashboard as it was: the card is simply not there.
  const daily = useQuery({ ...dailyTodayQuery(), enabled: hasToken }).data
  const dailyQuizId = daily?.quiz_id ?? null
  // The day's set is also in the quiz list; the card above shows it, so the list does not repeat it.
  const listed = quizzes.data?.filter((quiz) => quiz.id !== dailyQuizId)

  return (
    <section aria-labelledby="dashboard-title">
      <div className="page-header">
        <h1 id="dashboard-title">{t('title')}</h1>
        <LanguageToggle />
      </div>
      {daily && dailyQuizId !== null && (
        <Suspense fallback={null}>
          <DailyCard today={{ ...daily, quiz_id: dailyQuizId }} />
        </Suspense>
      )}
      {!hasToken ? (
        <Alert kind="error">{t('no_token')}</Alert>
      ) : quizzes.isPending ? (
        <Loading label={t('loading')} />
      ) : quizzes.isError ? (
        <Alert kind="error">{t('load_failed')}</Alert>
      ) : !listed || listed.length === 0 ? (
        dailyQuizId === null && <p className="card dashboard__empty">{t('empty')}</p>
      ) : (
        <ul className="quiz-grid">
          {liveFirst(listed, now).map((quiz) => (
            <QuizCard key={quiz.id} quiz={quiz} now={now} />
          ))}
        </ul>
      )}
      {hasToken && <PaperResults />}
    </section>
  )
}
