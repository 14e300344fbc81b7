import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Loading } from '../../../components/ui/loading'
import { useBilingual } from '../../../i18n/use-bilingual'
import { paths } from '../../../lib/paths'
import { useRouteId } from '../../../lib/route-id'
import { QuizTabs } from '../quizzes/quiz-tabs'
import { adminQueries } from '../quizzes/quizzes.api'
import { PaperEditor } from './paper-editor'
import type { QuizWithPaper } from './paper-draft'
import '../admin.css'
import '../admin.i18n'
import '../bank/bank.css'
import '../bank/bank.i18n'

/** /admin/quiz/{id}/paper: the quiz's sections, marks, times, fixed questions and draws. */
export function Component() {
  const { t } = useTranslation('bank')
  const { t: tAdmin } = useTranslation('admin')
  const pick = useBilingual()
  const quizId = useRouteId('quizId')
  const quiz = useQuery({ ...adminQueries.quiz(quizId ?? 0), enabled: quizId !== null })
  const back = (
    <p className="admin-back">
      <Link to={paths.admin()}>{tAdmin('common.back_to_dashboard')}</Link>
    </p>
  )
  if (quizId !== null && quiz.data) {
    return (
      <div className="admin">
        {back}
        <h1>{t('paper.title', { title: pick(quiz.data.title) })}</h1>
        <QuizTabs quizId={quizId} />
        <PaperEditor key={quiz.data.id} quiz={quiz.data as QuizWithPaper} />
      </div>
    )
  }
  const notFound = quizId === null || (quiz.error instanceof ApiError && quiz.error.status === 404)
  return (
    <div className="admin">
      {back}
      {notFound ? (
        <Alert kind="error">{tAdmin('edit.not_found')}</Alert>
      ) : quiz.isError ? (
        <Alert kind="error">{tAdmin('edit.load_failed')}</Alert>
      ) : (
        <Loading label={tAdmin('edit.loading')} />
      )}
    </div>
  )
}
