import { useTranslation } from 'react-i18next'
import { AdminQuizFrame } from '../admin/quizzes/admin-quiz-frame'
import { MarkingOverview } from './marking-overview'
import './marking.i18n'

/** /admin/quiz/{id}/marking: the quiz's Marking tab (WEB.md "Written answers"). */
export function Component() {
  const { t } = useTranslation('marking')
  return (
    <AdminQuizFrame heading={(title) => t('overview.title', { title })}>
      {(quiz) => <MarkingOverview quizId={quiz.id} />}
    </AdminQuizFrame>
  )
}
