import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert'
import { useLanguage } from '../../i18n/use-bilingual'
import { digitsFor } from '../../lib/format'
import type { SaveStatus } from './answer-queue'
import { formatClock } from './use-countdown'
import './quiz.i18n'

function saveStatusKey(status: SaveStatus, pending: number) {
  if (status === 'offline') return 'save.offline'
  if (status === 'retrying') return 'save.retrying'
  if (status === 'failed') return 'save.failed'
  if (status === 'saving' || pending > 0) return 'save.saving'
  return 'save.saved'
}

/**
 * The countdown and the save status. A screen reader hears the time at 10, 5 and 1 minutes left (a polite region whose
 * text changes only then), never every second: the timer itself is not live.
 */
export function ExamBar({
  secondsLeft,
  saveStatus,
  pending,
}: {
  secondsLeft: number | null
  saveStatus: SaveStatus
  pending: number
}) {
  const { t } = useTranslation('quiz')
  const language = useLanguage()
  const clock = formatClock(secondsLeft ?? 0)
  const lowTime = secondsLeft !== null && secondsLeft <= 60
  const timeNotice =
    secondsLeft === null
      ? ''
      : secondsLeft <= 60
        ? t('timer.one_minute_left')
        : secondsLeft <= 300
          ? t('timer.five_minutes_left')
          : secondsLeft <= 600
            ? t('timer.ten_minutes_left')
            : ''
  return (
    <>
      <div className="quiz__bar">
        <p className={`quiz__timer${lowTime ? ' quiz__timer--low' : ''}`}>
          <span className="quiz__timer-label">{t('timer.label')}</span>{' '}
          <span role="timer" aria-label={t('timer.aria', { time: clock })} className="quiz__clock">
            {digitsFor(clock, language)}
          </span>
        </p>
        <p className={`quiz__save quiz__save--${saveStatus}`} role="status">
          {t(saveStatusKey(saveStatus, pending), { count: pending })}
        </p>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {timeNotice}
      </p>
    </>
  )
}

/**
 * What the learner must know about the connection and the hand-in: offline, the time is up, a submission waiting
 * for the connection (decision 019), the answers sent once back online.
 */
export function ExamNotices({
  online,
  finished,
  timeUp,
  awaitingConnection,
  reconnected,
}: {
  online: boolean
  finished: boolean
  timeUp: boolean
  awaitingConnection: { automatic: boolean } | null
  reconnected: { sent: number } | null
}) {
  const { t } = useTranslation('quiz')
  return (
    <>
      {awaitingConnection && !finished ? (
        <Alert kind="info">{t(awaitingConnection.automatic ? 'time_up_offline' : 'submit_offline')}</Alert>
      ) : (
        <>
          {!online && <Alert kind="info">{t('offline')}</Alert>}
          {timeUp && !finished && <Alert kind="info">{t('time_up_submitting')}</Alert>}
        </>
      )}
      {reconnected && online && !finished && (
        <Alert kind="success">
          {reconnected.sent > 0 ? t('back_online.sent', { count: reconnected.sent }) : t('back_online.saved')}
        </Alert>
      )}
    </>
  )
}

/** How much of the paper is on the device (decision 019): all of it means the exam goes on without a connection. */
export function KeptNotice({ kept, total }: { kept: number | null; total: number }) {
  const { t } = useTranslation('quiz')
  if (kept === null) return null
  return <p className="quiz__kept muted">{kept >= total ? t('kept.all') : t('kept.some', { kept, total })}</p>
}
