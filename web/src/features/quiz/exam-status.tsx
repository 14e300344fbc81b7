import { useState } from 'react'
import type { TFunction } from 'i18next'
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
 * text changes only then), never every second: the timer is not live (read only when reached), and the "Time left"
 * button says the time when pressed (WEB.md "A blind learner": a ticking region would drown every question).
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
  // What the button last said, with a count so that asking twice in the same minute is said twice.
  const [asked, setAsked] = useState<{ text: string; times: number } | null>(null)
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
          <button
            type="button"
            className="quiz__timer-label"
            onClick={() =>
              setAsked((last) => ({ text: spokenTime(secondsLeft ?? 0, t), times: (last?.times ?? 0) + 1 }))
            }
          >
            {t('timer.label')}
          </button>{' '}
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
      <p className="visually-hidden" role="status" data-asked={asked?.times}>
        {/* A new node each time, so a screen reader reads the same words again. */}
        {asked && <span key={asked.times}>{asked.text}</span>}
      </p>
    </>
  )
}

/** "12 minutes 5 seconds left", in words a voice reads well (not "12:05"); Devanagari digits in Nepali by t(). */
function spokenTime(secondsLeft: number, t: TFunction<'quiz'>) {
  const whole = Math.max(0, Math.ceil(secondsLeft))
  return t('timer.spoken', {
    minutes: t('timer.minutes', { count: Math.floor(whole / 60) }),
    seconds: t('timer.seconds', { count: whole % 60 }),
  })
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
