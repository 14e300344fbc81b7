import type { QuizStatus } from '@quiz/contracts'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { paths } from '../../../lib/paths'
import { useQuizStatusAction, type AdminQuiz, type StatusAction } from './quizzes.api'
import '../admin.i18n'

/** "Draft" or "Published", as the admin list and the quiz's page show it. */
export function StatusBadge({ status }: { status: QuizStatus }) {
  const { t } = useTranslation('admin')
  return <span className={`badge badge--${status}`}>{t(`status.${status}`)}</span>
}

type Outcome =
  | { ok: true; action: 'publish' | 'unpublish' }
  | { ok: true; action: 'duplicate'; copyId: number }
  | { ok: false; message: string }
  | null

/** The screen's own words for a refusal (WEB.md), never the server's detail. */
function refusalKey(action: StatusAction, error: unknown) {
  if (error instanceof ApiError) {
    if (error.code === 'paper_empty') return 'status.paper_empty'
    if (action === 'unpublish' && error.status === 409) return 'status.unpublish_attempted'
    if (error.status === 404) return 'status.not_found'
  }
  return `status.${action}_failed` as const
}

/**
 * The quiz's status with Publish or Unpublish, and Duplicate (API.md "Administration", bullet "Drafts"): a draft is
 * invisible to learners until published; a copy is a new draft of the same details and paper.
 */
export function QuizStatusBar({ quiz }: { quiz: AdminQuiz }) {
  const { t } = useTranslation('admin')
  const change = useQuizStatusAction(quiz.id)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const isDraft = quiz.status === 'draft'

  const run = (action: StatusAction) => {
    setOutcome(null)
    change.mutate(action, {
      onSuccess: (answer) =>
        setOutcome(action === 'duplicate' ? { ok: true, action, copyId: answer.id } : { ok: true, action }),
      onError: (error) => setOutcome({ ok: false, message: t(refusalKey(action, error)) }),
    })
  }

  return (
    <section className="card admin-status" aria-label={t('status.heading')}>
      <p className="admin-status__line">
        <StatusBadge status={quiz.status} />
        <span>{isDraft ? t('status.draft_hint') : t('status.published_hint')}</span>
      </p>
      <div className="actions">
        {isDraft ? (
          <Button variant="primary" disabled={change.isPending} onClick={() => run('publish')}>
            {t('status.publish')}
          </Button>
        ) : (
          <Button disabled={change.isPending} onClick={() => run('unpublish')}>
            {t('status.unpublish')}
          </Button>
        )}
        <Button disabled={change.isPending} onClick={() => run('duplicate')}>
          {t('status.duplicate')}
        </Button>
      </div>
      {outcome?.ok === false && <Alert kind="error">{outcome.message}</Alert>}
      {outcome?.ok === true && outcome.action === 'duplicate' && (
        <Alert kind="success">
          {t('status.duplicated')} <Link to={paths.adminEditQuiz(outcome.copyId)}>{t('status.open_copy')}</Link>
        </Alert>
      )}
      {outcome?.ok === true && outcome.action !== 'duplicate' && (
        <Alert kind="success">{t(outcome.action === 'publish' ? 'status.published_now' : 'status.unpublished')}</Alert>
      )}
    </section>
  )
}
