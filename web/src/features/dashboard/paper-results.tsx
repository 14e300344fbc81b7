import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { resultListQuery } from '../../api/results'
import { InlineText } from '../../components/ui/rich-text'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatDate, formatScore } from '../../lib/format'
import { paths } from '../../lib/paths'
import './dashboard.i18n'

/** Paper results shown on the dashboard: those of sittings held in the last 30 days, newest first. */
const RECENT_DAYS = 30
const SHOWN = 3

/**
 * WEB.md "Paper sittings": a learner's paper attempts show on the dashboard, marked "On paper" with the sitting's
 * date: a mock sat in a hall has no other trace on this screen, and its report is what the learner comes for.
 */
export function PaperResults() {
  const { t } = useTranslation('dashboard')
  const language = useLanguage()
  const results = useQuery(resultListQuery())
  const [since] = useState(() => Date.now() - RECENT_DAYS * 24 * 60 * 60 * 1000)
  const recent = (results.data ?? [])
    .flatMap((quiz) =>
      quiz.attempts
        .filter((attempt) => attempt.mode === 'paper' && Date.parse(attempt.completed_timestamp) >= since)
        .map((attempt) => ({ attempt, title: quiz.title })),
    )
    .sort((a, b) => Date.parse(b.attempt.completed_timestamp) - Date.parse(a.attempt.completed_timestamp))
    .slice(0, SHOWN)
  if (recent.length === 0) return null
  return (
    <section className="paper-results card" aria-labelledby="paper-results-title">
      <h2 id="paper-results-title">{t('paper_results.title')}</h2>
      <ul>
        {recent.map(({ attempt, title }) => (
          <li key={attempt.id} className="paper-results__row">
            <span className="badge badge--paper">{t('paper_results.on_paper')}</span>
            <span className="paper-results__title">
              <InlineText text={title} />
            </span>
            <time dateTime={attempt.completed_timestamp}>{formatDate(attempt.completed_timestamp, language)}</time>
            <span>{t('paper_results.score', { score: formatScore(attempt.score, language) })}</span>
            <Link to={paths.report(attempt.id)}>{t('paper_results.view_report')}</Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
