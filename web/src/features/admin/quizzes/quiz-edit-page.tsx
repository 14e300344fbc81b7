import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../../api/api-error'
import { paths } from '../../../lib/paths'
import { useRouteId } from '../../../lib/route-id'
import { Alert } from '../../../components/ui/alert'
import { Loading } from '../../../components/ui/loading'
import { useBilingual } from '../../../i18n/use-bilingual'
import { adminQueries } from './quizzes.api'
import { QuestionsSection } from './questions-section'
import { QuizDetailsForm } from './quiz-details-form'
import { QuizTabs } from './quiz-tabs'
import '../admin.css'
import '../admin.i18n'

/** /admin/quiz/{id}/edit: the quiz's details and its questions. */
export function Component() {
  const { t } = useTranslation('admin')
  const pick = useBilingual()
  const quizId = useRouteId('quizId')
  const quiz = useQuery({ ...adminQueries.quiz(quizId ?? 0), enabled: quizId !== null })

  const back = (
    <p className="admin-back">
      <Link to={paths.admin()}>{t('common.back_to_dashboard')}</Link>
    </p>
  )

  // A failed background refetch keeps the quiz on screen: only a first load without data shows the failure.
  if (quizId !== null && quiz.data) {
    return (
      <div className="admin">
        {back}
        <h1>{t('edit.title', { title: pick(quiz.data.title) })}</h1>
        <QuizTabs quizId={quizId} />
        <QuizDetailsForm key={quiz.data.id} quiz={quiz.data} />
        <QuestionsSection quiz={quiz.data} />
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
