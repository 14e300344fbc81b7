import type { SubmitResult } from '@quiz/contracts'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, type Blocker } from 'react-router'
import { Button, buttonClass } from '../../components/ui/button'
import { Dialog } from '../../components/ui/dialog'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatNumber, formatScore } from '../../lib/format'
import { paths } from '../../lib/paths'
import type { PaletteState } from './palette-state'
import './quiz.i18n'
import './sections.i18n'

/** "Submit the quiz?", with how many questions are answered, marked and not visited. */
export function ConfirmSubmitDialog({
  open,
  counts,
  total,
  submitting,
  onCancel,
  onConfirm,
}: {
  open: boolean
  counts: Record<PaletteState, number>
  total: number
  submitting: boolean
  onCancel: () => void
  onConfirm: () => void
}) {
  const { t } = useTranslation('quiz')
  const language = useLanguage()
  const rows = ['answered', 'answered_marked', 'not_answered', 'marked', 'not_visited'] as const
  return (
    <Dialog
      open={open}
      title={t('confirm.title')}
      onClose={onCancel}
      described
      actions={
        <>
          <Button onClick={onCancel}>{t('cancel')}</Button>
          <Button variant="primary" onClick={onConfirm} disabled={submitting}>
            {t('confirm.confirm')}
          </Button>
        </>
      }
    >
      <p>{t('confirm.answered', { answered: counts.answered + counts.answered_marked, total })}</p>
      <dl className="summary">
        {rows.map((row) => (
          <div key={row}>
            <dt>{t(`summary.${row}`)}</dt>
            <dd>{formatNumber(counts[row], language)}</dd>
          </div>
        ))}
      </dl>
      <p>{t('confirm.irreversible')}</p>
    </Dialog>
  )
}

/** A paper's maximum, when the result carries it (API.md "Papers"). */
const maxOf = (result: SubmitResult) => (result as { max_score?: number }).max_score

/** The score once the attempt is handed in; `automatic`: the time ran out. */
export function ScoreDialog({
  outcome,
  children,
}: {
  outcome: { result: SubmitResult; automatic: boolean } | null
  /** What the hand-in left still going (written answers' photos). */
  children?: ReactNode
}) {
  const { t } = useTranslation('quiz')
  const language = useLanguage()
  const navigate = useNavigate()
  const result = outcome?.result
  return (
    <Dialog
      open={result !== undefined}
      className="score-dialog"
      title={outcome?.automatic ? t('score.time_up_title') : t('score.title')}
      actions={
        result && (
          <>
            <Link className={buttonClass()} to={paths.report(result.attempt_id)}>
              {t('score.view_report')}
            </Link>
            <Button variant="primary" onClick={() => navigate(paths.home())}>
              {t('back_to_dashboard')}
            </Button>
          </>
        )
      }
    >
      {result && (
        <div className="score">
          <p className="score__label">{t('score.your_score')}</p>
          <p className="score__value">{formatScore(result.score, language)}</p>
          {maxOf(result) !== undefined && (
            <p className="score__max">
              {t('out_of', {
                ns: 'sections',
                max: formatNumber(maxOf(result)!, language, { maximumFractionDigits: 2 }),
              })}
            </p>
          )}
          <dl className="score__counts">
            {(['correct', 'incorrect', 'unanswered'] as const).map((count) => (
              <div key={count}>
                <dt>{t(`score.${count}`)}</dt>
                <dd>{formatNumber(result[count], language)}</dd>
              </div>
            ))}
          </dl>
          {result.late && <p className="muted">{t('score.late')}</p>}
          {children}
        </div>
      )}
    </Dialog>
  )
}

/** "Leave the quiz?" for a route change the leave warning blocked. */
export function LeaveDialog({ blocker }: { blocker: Blocker }) {
  const { t } = useTranslation('quiz')
  return (
    <Dialog
      open={blocker.state === 'blocked'}
      title={t('leave.title')}
      onClose={() => blocker.reset?.()}
      actions={
        <>
          <Button variant="primary" onClick={() => blocker.reset?.()}>
            {t('leave.stay')}
          </Button>
          <Button variant="danger" onClick={() => blocker.proceed?.()}>
            {t('leave.leave')}
          </Button>
        </>
      }
    >
      <p>{t('leave.message')}</p>
    </Dialog>
  )
}
