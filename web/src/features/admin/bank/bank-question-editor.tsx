import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Loading } from '../../../components/ui/loading'
import { QuestionForm } from '../quizzes/question-form'
import { bankQueries } from './bank.api'
import './bank.i18n'

/** The question form over a bank question: a new one at once, an existing one once it has loaded. */
export function BankQuestionEditor({ id, onDone }: { id: number | null; onDone: (result: 'saved' | null) => void }) {
  const { t } = useTranslation('bank')
  const question = useQuery({ ...bankQueries.question(id ?? 0), enabled: id !== null })
  if (id !== null && question.isError) return <Alert kind="error">{t('load_question_failed')}</Alert>
  if (id !== null && !question.data) return <Loading label={t('loading_question')} />
  return (
    <QuestionForm
      quizId={null}
      question={id === null ? null : (question.data ?? null)}
      onCancel={() => onDone(null)}
      onSaved={() => onDone('saved')}
    />
  )
}
