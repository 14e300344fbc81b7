import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { adminQueries } from '../quizzes/quizzes.api'
import { QuizOptions } from '../ui'
import { useAddToQuiz } from './bank.api'
import './bank.i18n'

/** The selected questions into a chosen quiz's paper (its last section), one by one. */
export function AddToQuiz({ selected, onAdded }: { selected: number[]; onAdded: () => void }) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const quizzes = useQuery(adminQueries.list())
  const add = useAddToQuiz()
  const [quizId, setQuizId] = useState('')
  const [outcome, setOutcome] = useState<{ added: number; refused: number } | null>(null)
  const n = (value: number) => formatNumber(value, language)

  const submit = () =>
    add.mutate(
      { quizId: Number(quizId), questionIds: selected },
      {
        onSuccess: (result) => {
          setOutcome({ added: result.added, refused: result.refused.length })
          if (result.refused.length === 0) onAdded()
        },
      },
    )

  return (
    <div className="card bank-add">
      <p className="bank-add__count" aria-live="polite">
        {t('add.selected', { count: selected.length, n: n(selected.length) })}
      </p>
      <div className="field">
        <label htmlFor="bank-add-quiz">{t('add.quiz')}</label>
        <select id="bank-add-quiz" value={quizId} onChange={(event) => setQuizId(event.target.value)}>
          <option value="">{t('add.choose')}</option>
          <QuizOptions quizzes={quizzes.data} />
        </select>
      </div>
      <Button variant="primary" disabled={!quizId || selected.length === 0 || add.isPending} onClick={submit}>
        {add.isPending ? t('add.adding') : t('add.button')}
      </Button>
      {outcome && (
        <Alert kind={outcome.refused ? 'error' : 'success'}>
          {t('add.added', { count: outcome.added, n: n(outcome.added) })}
          {outcome.refused > 0 && ` ${t('add.refused', { count: outcome.refused, n: n(outcome.refused) })}`}
        </Alert>
      )}
      {add.isError && <Alert kind="error">{t('add.failed')}</Alert>}
    </div>
  )
}
