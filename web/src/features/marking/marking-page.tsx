import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'
import { Button, buttonClass } from '../../components/ui/button'
import { Loading } from '../../components/ui/loading'
import { paths } from '../../lib/paths'
import { useRouteId } from '../../lib/route-id'
import { useSessionUser } from '../../session/use-session'
import { endClaim, nextAnswer, saveEvaluation, type EvaluationInput, type MarkingAnswer } from './marking.api'
import { MarkingWorkspace, type SaveProblem } from './marking-workspace'
import './marking.css'
import './marking.i18n'

type Screen = { kind: 'loading' } | { kind: 'answer'; answer: MarkingAnswer } | { kind: 'done' } | { kind: 'failed' }

/**
 * /marking/quiz/{quizId}/question/{questionId}: one answer at a time, claimed for this marker; "Save and next"
 * stores the marks and takes the next answer, until none is left (WEB.md "Written answers").
 */
export function Component() {
  const { t } = useTranslation('marking')
  const quizId = useRouteId('quizId')
  const questionId = useRouteId('questionId')
  const user = useSessionUser()
  const [screen, setScreen] = useState<Screen>({ kind: 'loading' })
  const [saving, setSaving] = useState(false)
  const [problem, setProblem] = useState<SaveProblem | null>(null)
  const [marked, setMarked] = useState(0)
  const requested = useRef(false)
  const current = screen.kind === 'answer' ? screen.answer.answer_id : null

  const fetchNext = useCallback(async () => {
    if (quizId === null || questionId === null) return setScreen({ kind: 'failed' })
    setProblem(null)
    try {
      const answer = await nextAnswer(quizId, questionId)
      setScreen(answer ? { kind: 'answer', answer } : { kind: 'done' })
    } catch {
      setScreen({ kind: 'failed' })
    }
  }, [quizId, questionId])

  useEffect(() => {
    // One claim per visit: a second `next` (React's double effect in development) would claim a second answer.
    if (requested.current) return
    requested.current = true
    void fetchNext()
  }, [fetchNext])

  const save = async (body: EvaluationInput) => {
    if (current === null || saving) return
    setSaving(true)
    setProblem(null)
    try {
      await saveEvaluation(current, body)
      setMarked((count) => count + 1)
      await fetchNext()
    } catch (error) {
      const code = error instanceof ApiError ? error.code : ''
      setProblem(
        code === 'claimed_by_other' ? 'claimed_by_other' : code === 'rubric_changed' ? 'rubric_changed' : 'failed',
      )
    } finally {
      setSaving(false)
    }
  }

  const back = user?.isAdmin ? paths.adminQuizMarking(quizId ?? 0) : paths.markingQuiz(quizId ?? 0)
  // Leaving without saving gives the answer back to the queue at once rather than after the 10-minute claim.
  const leave = () => {
    if (current !== null) void endClaim(current).catch(() => undefined)
  }

  return (
    <div className="marking">
      <p className="admin-back">
        <Link to={back} onClick={leave}>
          {t('screen.stop')}
        </Link>
      </p>
      {screen.kind === 'loading' && <Loading label={t('screen.loading')} />}
      {screen.kind === 'failed' && (
        <div className="card">
          <h1>{t('screen.title')}</h1>
          <Alert kind="error">{t('screen.load_failed')}</Alert>
          <Button variant="primary" onClick={() => void fetchNext()}>
            {t('screen.retry')}
          </Button>
        </div>
      )}
      {screen.kind === 'done' && (
        <div className="card marking-done">
          <h1>{t('screen.all_marked')}</h1>
          <p role="status">{t('screen.all_marked_body', { count: marked })}</p>
          <Link className={buttonClass({ variant: 'primary' })} to={back}>
            {t('screen.back_to_overview')}
          </Link>
        </div>
      )}
      {screen.kind === 'answer' && (
        <MarkingWorkspace
          key={screen.answer.answer_id}
          answer={screen.answer}
          saving={saving}
          problem={problem}
          onSave={(body) => void save(body)}
          onSkipToNext={() => void fetchNext()}
        />
      )}
    </div>
  )
}
