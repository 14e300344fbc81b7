import type { DailyToday } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClass } from '../../components/ui/button'
import { formatNumber, formatScore } from '../../lib/format'
import { paths } from '../../lib/paths'
import { formatDailyDate } from '../../lib/daily-date'
import { StreakFacts } from '../../components/daily/streak-facts'
import '../../components/daily/daily.css'
import '../../i18n/daily.i18n'

/**
 * The dashboard's first card (WEB.md "The daily set"): today's date in Bikram Sambat (AD beside it in English), the
 * questions and minutes, Start or the score with "See answers", and the streak. Loaded on its own (React.lazy in the
 * dashboard) and only when a set is out, so the learner's first screen keeps its budget.
 */
export function DailyCard({ today }: { today: DailyToday & { quiz_id: number } }) {
  const { t, i18n } = useTranslation('daily')
  const language = i18n.language
  const { attempted } = today
  return (
    <section className="card daily-card" aria-labelledby="daily-card-title">
      <div className="daily-card__head">
        <h2 id="daily-card-title" className="daily-card__title">
          {t('card.title')}
        </h2>
        <p className="daily-card__date">
          <time dateTime={today.date.ad}>{formatDailyDate(today.date, language, t)}</time>
        </p>
      </div>
      {today.question_count !== null && today.duration_minutes !== null && (
        <p className="daily-card__facts">
          {t('card.questions', { n: formatNumber(today.question_count, language) })} ·{' '}
          {t('card.minutes', { n: formatNumber(today.duration_minutes, language) })}
        </p>
      )}
      {attempted ? (
        <div className="daily-card__action">
          <p className="daily-card__score">
            {t('card.score', {
              score: formatScore(attempted.score, language),
              max: formatScore(attempted.max_score, language),
            })}
          </p>
          <Link className={buttonClass({ variant: 'primary' })} to={paths.report(attempted.attempt_id)}>
            {t('card.see_answers')}
          </Link>
        </div>
      ) : (
        <div className="daily-card__action">
          <Link className={buttonClass({ variant: 'primary' })} to={paths.quizInstructions(today.quiz_id)}>
            {t('card.start')}
          </Link>
        </div>
      )}
      <StreakFacts streak={today.streak} />
    </section>
  )
}
