import { useTranslation } from 'react-i18next'
import { AdminQuizFrame } from './admin-quiz-frame'
import { QuestionsSection } from './questions-section'
import { QuizDetailsForm } from './quiz-details-form'
import '../admin.i18n'

/** /admin/quiz/{id}/edit: the quiz's details and its questions. */
export function Component() {
  const { t } = useTranslation('admin')
  return (
    <AdminQuizFrame heading={(title) => t('edit.title', { title })}>
      {(quiz) => (
        <>
          <QuizDetailsForm key={quiz.id} quiz={quiz} />
          <QuestionsSection quiz={quiz} />
        </>
      )}
    </AdminQuizFrame>
  )
}
