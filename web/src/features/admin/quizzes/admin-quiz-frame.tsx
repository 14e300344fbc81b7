import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Loading } from '../../../components/ui/loading'
import { useBilingual } from '../../../i18n/use-bilingual'
import { paths } from '../../../lib/paths'
import { useRouteId } from '../../../lib/route-id'
import { QuizStatusBar } from './quiz-status'
import { QuizTabs } from './quiz-tabs'
import { adminQueries, type AdminQuiz } from './quizzes.api'
import '../admin.css'
import '../admin.i18n'

/**
 * A quiz's admin tab (details, paper): the way back, the heading, the tabs, and the tab's content once the quiz has
 * loaded; not found, a failed first load or loading otherwise. A failed background refetch keeps the quiz on screen.
 */
export function AdminQuizFrame({
  heading,
  children,
}: {
  heading: (title: string) => string
  children: (quiz: AdminQuiz) => ReactNode
}) {
  const { t } = useTranslation('admin')
  const pick = useBilingual()
  const quizId = useRouteId('quizId')
  const quiz = useQuery({ ...adminQueries.quiz(quizId ?? 0), enabled: quizId !== null })
  const back = (
    <p className="admin-back">
      <Link to={paths.admin()}>{t('common.back_to_dashboard')}</Link>
    </p>
  )
  if (quizId !== null && quiz.data) {
    return (
      <div className="admin">
        {back}
        <h1>{heading(pick(quiz.data.title))}</h1>
        <QuizStatusBar quiz={quiz.data} />
        <QuizTabs quizId={quizId} />
        {children(quiz.data)}
      </div>
    )
  }
  const notFound = quizId === null || (quiz.error instanceof ApiError && quiz.error.status === 404)
  return (
    <div className="admin">
      {back}
      {notFound ? (
        <Alert kind="error">{t('edit.not_found')}</Alert>
      ) : quiz.isError ? (
        <Alert kind="error">{t('edit.load_failed')}</Alert>
      ) : (
        <Loading label={t('edit.loading')} />
      )}
    </div>
  )
}
