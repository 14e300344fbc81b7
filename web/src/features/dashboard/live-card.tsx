import type { LiveInfo, QuizListItem } from '@quiz/contracts'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'
import { Button, buttonClass } from '../../components/ui/button'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatCountdown, formatNepalDateTime, formatNepalTime } from '../../lib/format'
import { paths } from '../../lib/paths'
import { askPushPermission, subscribeToPush } from '../../api/push-subscription'
import { canRegister, livePhase, liveStartState, type LiveStartState } from '../../lib/live-mock'
import { useLiveRegistration } from './live-registration'
import { useLivePaperAhead } from './live-paper-ahead'
import './dashboard.i18n'

type LiveQuiz = QuizListItem & { live: LiveInfo }

/** A live mock on the dashboard (WEB.md "Live mocks"): its start, a countdown, registration and what Start does now. */
export function LiveCardBody({ quiz, now }: { quiz: LiveQuiz; now: number }) {
  const { t } = useTranslation('dashboard', { keyPrefix: 'live' })
  const language = useLanguage()
  const { live } = quiz
  const phase = livePhase(live, now)
  const day = t('day_unit')
  const paperReady = useLivePaperAhead(quiz, now)

  return (
    <div className="live-card">
      <p className="live-card__start">
        <span className="live-card__label">{t('starts')}: </span>
        <time dateTime={live.starts_at}>{formatNepalDateTime(live.starts_at, language)}</time>
      </p>
      {phase === 'upcoming' && (
        <p className="live-card__countdown" role="timer">
          {t('starts_in', { time: formatCountdown(Date.parse(live.starts_at) - now, language, day) })}
        </p>
      )}
      {phase === 'open' && (
        <p className="live-card__countdown" role="timer">
          {t('join_closes_in', { time: formatCountdown(Date.parse(live.join_ends_at) - now, language, day) })}
        </p>
      )}
      {canRegister(phase) && <RegisterToggle quiz={quiz} />}
      {paperReady && phase !== 'ended' && <p className="quiz-card__note">{t('paper_ready')}</p>}
      <LiveAction quiz={quiz} state={liveStartState(quiz, phase, now)} ended={phase === 'ended'} />
    </div>
  )
}

function RegisterToggle({ quiz }: { quiz: LiveQuiz }) {
  const { t } = useTranslation('dashboard', { keyPrefix: 'live' })
  const hintId = useId()
  const registration = useLiveRegistration(quiz.id)

  const toggle = () => {
    const register = !quiz.registered
    // Asked here, in the click, and only when registering: browsers prompt only within a gesture, and WEB.md wants
    // the question never on first load.
    const permission = register ? askPushPermission() : null
    registration.mutate(register, {
      onSuccess: () => {
        if (permission) void subscribeToPush(permission)
      },
    })
  }

  const error = registration.error
  return (
    <div className="live-card__register">
      <Button
        variant={quiz.registered ? 'success' : 'plain'}
        aria-pressed={quiz.registered}
        aria-describedby={hintId}
        disabled={registration.isPending}
        onClick={toggle}
      >
        {quiz.registered ? t('registered') : t('register')}
      </Button>
      <p id={hintId} className="quiz-card__note">
        {t('register_hint')}
      </p>
      {error && (
        <Alert kind="error">
          {error instanceof ApiError && error.status === 409 ? t('register_closed') : t('register_failed')}
        </Alert>
      )}
    </div>
  )
}

function LiveAction({ quiz, state, ended }: { quiz: LiveQuiz; state: LiveStartState; ended: boolean }) {
  const { t } = useTranslation('dashboard')
  const language = useLanguage()
  const noteId = useId()
  const { live } = quiz
  const joinEnd = formatNepalTime(live.join_ends_at, language)
  const end = formatNepalTime(live.ends_at, language)

  const link = (label: string, note?: string) => (
    <>
      <Link
        className={buttonClass({ variant: 'primary' })}
        to={paths.quizInstructions(quiz.id)}
        aria-describedby={note ? noteId : undefined}
      >
        {label}
      </Link>
      {note && (
        <p id={noteId} className="quiz-card__note">
          {note}
        </p>
      )}
    </>
  )
  const disabled = (note: string) => (
    <>
      <Button variant="primary" disabled aria-describedby={noteId}>
        {t('start')}
      </Button>
      <p id={noteId} className="quiz-card__note">
        {note}
      </p>
    </>
  )

  const action = (() => {
    switch (state) {
      case 'start':
        return link(t('start'), t('live.join_until', { time: joinEnd, end }))
      case 'resume':
        return link(t('resume'))
      case 'practice':
        return link(t('live.practice'))
      case 'wait':
        return disabled(t('live.opens_at', { time: formatNepalTime(live.starts_at, language) }))
      case 'sat':
        return disabled(t('live.sat', { end }))
      case 'closed':
        return disabled(t('live.closed', { time: joinEnd, end }))
      case 'practice_soon':
        return disabled(t('live.practice_soon'))
      case 'paid_only':
        return (
          <>
            <Button variant="primary" disabled aria-describedby={noteId}>
              {t('start')}
            </Button>
            <p className="quiz-card__note">
              <span id={noteId}>{t('paid_only')}</span> <Link to={paths.plans()}>{t('see_plans')}</Link>
            </p>
          </>
        )
      case 'no_attempts':
        return ended ? <p className="quiz-card__note">{t('live.ended')}</p> : disabled(t('no_attempts'))
    }
  })()

  return (
    <div className="quiz-card__action">
      {action}
      {ended && (
        <Link className={buttonClass()} to={paths.leaderboard(quiz.id)}>
          {t('live.leaderboard')}
        </Link>
      )}
    </div>
  )
}
