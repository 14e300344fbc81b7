import { useTranslation } from 'react-i18next'
import { AdminQuizFrame } from '../features/admin/quizzes/admin-quiz-frame'
import { MarkingOverview } from '../features/marking/marking-overview'
import '../features/marking/marking.i18n'

/** /admin/quiz/{id}/marking: the quiz's Marking tab (WEB.md "Written answers"), the admin's frame around marking's overview. */
export function Component() {
  const { t } = useTranslation('marking')
  return (
    <AdminQuizFrame heading={(title) => t('overview.title', { title })}>
      {(quiz) => <MarkingOverview quizId={quiz.id} />}
    </AdminQuizFrame>
  )
}
