import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { availableQuizzesQuery } from '../../api/available-quizzes'
import { paths } from '../../lib/paths'
import { useRouteId } from '../../lib/route-id'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { startState } from '@quiz/contracts/rules/start'
import { PaletteLegend } from './palette-legend'
import { PaperMarking, sectionSummaries } from './paper-marking'
import './quiz.css'
import './quiz.i18n'
import { digitsFor } from '../../lib/digits'
import { Button, buttonClass } from '../../components/ui/button'
import { formatNepalTime } from '../../lib/format'
import { livePhase, liveStartState, type LiveStartState } from '../../lib/live-mock'
import { useLiveClock } from '../../api/use-live-clock'
import { LiveNote } from './live-note'

/** A live mock's Start: available (and what it reads), or why not. */
const LIVE_OPEN: Partial<Record<LiveStartState, 'start' | 'resume' | 'practice'>> = {
  start: 'start',
  resume: 'resume',
  practice: 'practice',
}

export function Component() {
  const { t, i18n } = useTranslation('quiz')
  const quizId = useRouteId('quizId')
  const quizzes = useQuery(availableQuizzesQuery())
  const now = useLiveClock(quizzes.data?.filter((entry) => entry.id === quizId))

  if (quizzes.isPending) return <Loading label={t('instructions.loading')} />
  if (quizzes.isError) return <Alert kind="error">{t('instructions.load_failed')}</Alert>

  const quiz = quizzes.data.find((entry) => entry.id === quizId)
  if (!quiz) {
    return (
      <div className="card center-card">
        <Alert kind="error">{t('instructions.not_found')}</Alert>
        <Link className={buttonClass({ variant: 'primary' })} to={paths.home()}>
          {t('back_to_dashboard')}
        </Link>
      </div>
    )
  }

  const state = startState(quiz)
  const sections = sectionSummaries(quiz)
  const phase = quiz.live ? livePhase(quiz.live, now) : null
  const liveState = quiz.live && phase ? liveStartState(quiz, phase, now) : null
  const liveBlock = liveState && !LIVE_OPEN[liveState] ? liveState : null
  const blocked = liveState ? liveBlock !== null : state === 'no_attempts' || state === 'paid_only'
  const startLabel =
    liveState === 'practice'
      ? t('live.practice')
      : state === 'resume'
        ? t('instructions.resume')
        : t('instructions.start')
  const liveNote = (() => {
    if (!quiz.live) return null
    const end = formatNepalTime(quiz.live.ends_at, i18n.language)
    switch (liveBlock) {
      case 'wait':
        return t('live.opens_at', { time: formatNepalTime(quiz.live.starts_at, i18n.language) })
      case 'sat':
        return t('live.sat', { end })
      case 'closed':
        return t('live.closed', { time: formatNepalTime(quiz.live.join_ends_at, i18n.language), end })
      case 'practice_soon':
        return t('live.practice_soon')
      default:
        return null
    }
  })()

  return (
    <article className="instructions card">
      <header className="instructions__header">
        <h1 lang="en">{quiz.title.en}</h1>
        {quiz.title.ne && (
          <p className="instructions__title-ne" lang="ne">
            {quiz.title.ne}
          </p>
        )}
        {quiz.is_paid_tier && <span className="badge badge--paid">{t('instructions.paid')}</span>}
      </header>

      <dl className="instructions__facts">
        <div>
          <dt>{t('instructions.duration')}</dt>
          <dd>{t('instructions.minutes', { count: quiz.duration_minutes })}</dd>
        </div>
        <div>
          <dt>{t('instructions.questions')}</dt>
          <dd>{digitsFor(String(quiz.question_count), i18n.language)}</dd>
        </div>
        <div>
          <dt>{t('instructions.difficulty')}</dt>
          <dd>{t(`difficulty.${quiz.difficulty}`)}</dd>
        </div>
        <div>
          <dt>{t('instructions.attempts')}</dt>
          <dd>
            {t('instructions.attempts_value', { remaining: quiz.remaining_attempts, allowed: quiz.allowed_attempts })}
          </dd>
        </div>
      </dl>

      {sections ? (
        <PaperMarking sections={sections} />
      ) : (
        <section aria-labelledby="marking-heading">
          <h2 id="marking-heading">{t('instructions.marking_title')}</h2>
          <ul className="instructions__marking">
            <li>
              <strong className="mark mark--plus">+1</strong> <span>{t('instructions.marking_correct')}</span>
            </li>
            <li>
              <strong className="mark mark--minus">-0.2</strong> <span>{t('instructions.marking_wrong')}</span>
            </li>
            <li>
              <strong className="mark">0</strong> <span>{t('instructions.marking_unanswered')}</span>
            </li>
          </ul>
        </section>
      )}

      <section aria-labelledby="rules-heading">
        <h2 id="rules-heading">{t('instructions.rules_title')}</h2>
        <ul>
          <li>{t('instructions.rule_timer')}</li>
          <li>{t('instructions.rule_auto_submit')}</li>
          <li>{t('instructions.rule_irreversible')}</li>
          <li>{t('instructions.rule_saved')}</li>
          <li>{t('instructions.rule_review')}</li>
        </ul>
      </section>

      {quiz.live && phase && <LiveNote live={quiz.live} phase={phase} />}

      <section aria-labelledby="legend-heading">
        <h2 id="legend-heading">{t('instructions.legend_title')}</h2>
        <PaletteLegend />
      </section>

      {liveNote && <Alert kind="info">{liveNote}</Alert>}
      {(liveState ?? state) === 'no_attempts' && <Alert kind="error">{t('errors.no_attempts')}</Alert>}
      {(liveState ?? state) === 'paid_only' && (
        <Alert kind="error">
          {t('errors.paid_only')} <Link to={paths.plans()}>{t('see_plans')}</Link>
        </Alert>
      )}

      <div className="instructions__actions">
        <Link className={buttonClass()} to={paths.home()}>
          {t('back_to_dashboard')}
        </Link>
        {blocked ? (
          <Button variant="primary" disabled>
            {t('instructions.start')}
          </Button>
        ) : (
          <Link className={buttonClass({ variant: 'primary' })} to={paths.quiz(quiz.id)}>
            {startLabel}
          </Link>
        )}
      </div>
    </article>
  )
}
