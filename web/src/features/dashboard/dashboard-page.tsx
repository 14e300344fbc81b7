import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { availableQuizzesQuery } from '../../api/available-quizzes'
import { LanguageToggle } from '../../components/layout/language-switcher'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { sessionStore } from '../../session/session-store'
import { useSessionUser } from '../../session/use-session'
import './dashboard.css'
import { QuizCard } from './quiz-card'
import './dashboard.i18n'

export function Component() {
  const { t } = useTranslation('dashboard')
  // Re-read on every session change (another tab logging out removes the token under us).
  useSessionUser()
  const hasToken = sessionStore.accessToken() !== null
  const quizzes = useQuery({ ...availableQuizzesQuery(), enabled: hasToken })

  return (
    <section aria-labelledby="dashboard-title">
      <div className="page-header">
        <h1 id="dashboard-title">{t('title')}</h1>
        <LanguageToggle />
      </div>
      {!hasToken ? (
        <Alert kind="error">{t('no_token')}</Alert>
      ) : quizzes.isPending ? (
        <Loading label={t('loading')} />
      ) : quizzes.isError ? (
        <Alert kind="error">{t('load_failed')}</Alert>
      ) : quizzes.data.length === 0 ? (
        <p className="card dashboard__empty">{t('empty')}</p>
      ) : (
        <ul className="quiz-grid">
          {quizzes.data.map((quiz) => (
            <QuizCard key={quiz.id} quiz={quiz} />
          ))}
        </ul>
      )}
    </section>
  )
}
