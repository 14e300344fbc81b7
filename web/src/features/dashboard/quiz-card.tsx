import { lazy, Suspense, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { paths } from '../../lib/paths'
import { useBilingualLang } from '../../i18n/use-bilingual'
import { startState } from '@quiz/contracts/rules/start'
import type { QuizListItem } from '@quiz/contracts'
import './dashboard.i18n'
import { digitsFor } from '../../lib/digits'
import { Button, buttonClass } from '../../components/ui/button'

// A live mock's part of the card (registration, reminders, the paper ahead) is fetched only when a live mock is listed:
// most days none is, and the learner's first screen stays under its ceiling (web/scripts/report-size.mjs).
const LiveCardBody = lazy(() => import('./live-card').then((module) => ({ default: module.LiveCardBody })))

/** `now`: the screen's one clock for the live mocks' countdowns (useLiveClock). */
export function QuizCard({ quiz, now }: { quiz: QuizListItem; now: number }) {
  const { t, i18n } = useTranslation('dashboard')
  const pick = useBilingualLang()
  const noteId = useId()
  const state = startState(quiz)
  // Why Start is unavailable, if it is (WEB.md).
  const blocker = state === 'paid_only' || state === 'no_attempts' ? state : null
  const title = pick(quiz.title)

  return (
    <li className="card quiz-card">
      <div className="quiz-card__head">
        <h2 className="quiz-card__title" lang={title.lang}>
          {title.text}
        </h2>
        <div className="quiz-card__badges">
          <span className={`badge badge--${quiz.difficulty}`}>
            <span className="visually-hidden">{t('difficulty_label')}: </span>
            {t(`difficulty.${quiz.difficulty}`)}
          </span>
          {quiz.live && <span className="badge badge--live">{t('live.badge')}</span>}
          {quiz.is_paid_tier && <span className="badge badge--paid">{t('paid')}</span>}
        </div>
      </div>
      <dl className="quiz-card__facts">
        <div>
          <dt>{t('duration')}</dt>
          <dd>{t('minutes', { minutes: quiz.duration_minutes })}</dd>
        </div>
        <div>
          <dt>{t('questions')}</dt>
          <dd>{digitsFor(String(quiz.question_count), i18n.language)}</dd>
        </div>
        <div>
          <dt>{t('attempts')}</dt>
          <dd>{t('attempts_value', { remaining: quiz.remaining_attempts, allowed: quiz.allowed_attempts })}</dd>
        </div>
      </dl>
      {quiz.live ? (
        <Suspense fallback={null}>
          <LiveCardBody quiz={{ ...quiz, live: quiz.live }} now={now} />
        </Suspense>
      ) : blocker === 'paid_only' ? (
        <div className="quiz-card__action">
          <Button variant="primary" disabled aria-describedby={noteId}>
            {t('start')}
          </Button>
          <p className="quiz-card__note">
            <span id={noteId}>{t('paid_only')}</span> <Link to={paths.plans()}>{t('see_plans')}</Link>
          </p>
        </div>
      ) : (
        <div className="quiz-card__action">
          {/* With no attempts left the instructions screen still explains why Start is off (SPEC.md). */}
          <Link
            className={buttonClass({ variant: 'primary' })}
            to={paths.quizInstructions(quiz.id)}
            aria-describedby={blocker ? noteId : undefined}
          >
            {quiz.has_attempt_in_progress ? t('resume') : t('start')}
          </Link>
          {blocker === 'no_attempts' && (
            <p id={noteId} className="quiz-card__note">
              {t('no_attempts')}
            </p>
          )}
        </div>
      )}
    </li>
  )
}
