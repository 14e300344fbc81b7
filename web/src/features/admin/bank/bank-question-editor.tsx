import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Loading } from '../../../components/ui/loading'
import { QuestionForm } from '../quizzes/question-form'
import { platformBankQueries } from '../platform-bank/platform-bank.api'
import { bankQueries } from './bank.api'
import './bank.i18n'

/**
 * The question form over a bank question: a new one at once, an existing one once it has loaded. `platform`: a
 * question of the platform's bank, on its admins' screens (the same form, at the platform bank's address).
 */
export function BankQuestionEditor({
  id,
  onDone,
  platform = false,
}: {
  id: number | null
  onDone: (result: 'saved' | null) => void
  platform?: boolean
}) {
  const { t } = useTranslation('bank')
  const own = useQuery({ ...bankQueries.question(id ?? 0), enabled: id !== null && !platform })
  const platforms = useQuery({
    ...platformBankQueries.question('/platform/bank/questions/', id ?? 0),
    enabled: id !== null && platform,
  })
  const question = platform ? platforms : own
  if (id !== null && question.isError) return <Alert kind="error">{t('load_question_failed')}</Alert>
  if (id !== null && !question.data) return <Loading label={t('loading_question')} />
  return (
    <QuestionForm
      quizId={null}
      platform={platform}
      question={id === null ? null : (question.data ?? null)}
      onCancel={() => onDone(null)}
      onSaved={() => onDone('saved')}
    />
  )
}
