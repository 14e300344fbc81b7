import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'
import { Button, buttonClass } from '../../components/ui/button'
import { Loading } from '../../components/ui/loading'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import { paths } from '../../lib/paths'
import { useRouteId } from '../../lib/route-id'
import { useSessionUser } from '../../session/use-session'
import { markingKeys, markingQueries, saveEvaluation, type EvaluationInput } from './marking.api'
import { MarkingWorkspace, type SaveProblem } from './marking-workspace'
import './marking.css'
import './marking.i18n'

/**
 * /marking/quiz/{quizId}/answer/{answerId}: one answer opened by id (`GET /api/admin/written-answers/{id}/`), for
 * marking again the answer of an accepted regrade request; saving settles the request (docs/decisions/071).
 */
export function Component() {
  const { t } = useTranslation('marking')
  const language = useLanguage()
  const quizId = useRouteId('quizId')
  const answerId = useRouteId('answerId')
  const user = useSessionUser()
  const queryClient = useQueryClient()
  const answer = useQuery({ ...markingQueries.answer(answerId ?? 0), enabled: answerId !== null })
  const [saving, setSaving] = useState(false)
  const [problem, setProblem] = useState<SaveProblem | null>(null)
  const [score, setScore] = useState<number | null>(null)
  const back = user?.isAdmin ? paths.adminQuizMarking(quizId ?? 0) : paths.markingQuiz(quizId ?? 0)

  const save = async (body: EvaluationInput) => {
    if (answerId === null || saving) return
    setSaving(true)
    setProblem(null)
    try {
      setScore((await saveEvaluation(answerId, body)).score)
      void queryClient.invalidateQueries({ queryKey: ['marking', quizId] })
    } catch (error) {
      const code = error instanceof ApiError ? error.code : ''
      setProblem(
        code === 'claimed_by_other' ? 'claimed_by_other' : code === 'rubric_changed' ? 'rubric_changed' : 'failed',
      )
    } finally {
      setSaving(false)
    }
  }
  const reload = () => {
    setProblem(null)
    if (answerId !== null) void queryClient.invalidateQueries({ queryKey: markingKeys.answer(answerId) })
  }

  return (
    <div className="marking">
      <p className="admin-back">
        <Link to={back}>{t('answer_screen.back')}</Link>
      </p>
      {score !== null ? (
        <div className="card marking-done">
          <h1>{t('answer_screen.saved')}</h1>
          <p role="status">{t('answer_screen.saved_body', { score: formatNumber(score, language) })}</p>
          <Link className={buttonClass({ variant: 'primary' })} to={back}>
            {t('answer_screen.back')}
          </Link>
        </div>
      ) : answerId === null || answer.isError ? (
        <div className="card">
          <h1>{t('screen.title')}</h1>
          <Alert kind="error">{t('answer_screen.load_failed')}</Alert>
          <Button variant="primary" onClick={() => void answer.refetch()}>
            {t('screen.retry')}
          </Button>
        </div>
      ) : answer.isPending ? (
        <Loading label={t('answer_screen.loading')} />
      ) : (
        <MarkingWorkspace
          key={`${answer.data.answer_id}-${answer.data.rubric.revision}`}
          answer={answer.data}
          saving={saving}
          problem={problem}
          saveLabel={t('answer_screen.save')}
          onSave={(body) => void save(body)}
          onSkipToNext={reload}
        />
      )}
    </div>
  )
}
