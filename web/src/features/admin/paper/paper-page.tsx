import { useTranslation } from 'react-i18next'
import { AdminQuizFrame } from '../quizzes/admin-quiz-frame'
import { PaperEditor } from './paper-editor'
import type { QuizWithPaper } from './paper-draft'
import '../bank/bank.css'
import '../bank/bank.i18n'

/** /admin/quiz/{id}/paper: the quiz's sections, marks, times, fixed questions and draws. */
export function Component() {
  const { t } = useTranslation('bank')
  return (
    <AdminQuizFrame heading={(title) => t('paper.title', { title })}>
      {(quiz) => <PaperEditor key={quiz.id} quiz={quiz as QuizWithPaper} />}
    </AdminQuizFrame>
  )
}
