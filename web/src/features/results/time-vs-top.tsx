import { useTranslation } from 'react-i18next'
import { formatNumber } from '../../lib/format'
import { useDuration } from './analysis-panel'
import type { ReportCard } from './results.api'
import './results.i18n'

/**
 * WEB.md "Your time against the top 10 %": per question, a bar of the learner's seconds beside the top group's
 * median. Each bar carries its value as text (not length or colour alone); left out while the top group is too small
 * to say anything (`top_seconds` null under 10 ranked attempts, docs/decisions/111).
 */
export function TimeVsTop({ card }: { card: ReportCard }) {
  const { t, i18n } = useTranslation('results')
  const duration = useDuration()
  // Whole seconds, as the learner's own are: a bar is as long as the number written beside it says.
  const rows = card.time_vs_top?.map((row) => ({
    ...row,
    top_seconds: row.top_seconds === null ? null : Math.round(row.top_seconds),
  }))
  if (!rows || rows.length === 0 || rows.every((row) => row.top_seconds === null)) return null
  const numberOf = new Map(card.questions.map((question, index) => [question.id, index + 1]))
  // Bars share one scale, so a long question reads long against every other.
  const longest = Math.max(1, ...rows.flatMap((row) => [row.seconds, row.top_seconds ?? 0]))
  const width = (seconds: number) => `${Math.max(0.5, (seconds / longest) * 100)}%`
  return (
    <section className="time-vs-top" aria-labelledby="time-vs-top-title">
      <h2 id="time-vs-top-title">{t('time_vs_top.title')}</h2>
      <p className="muted">{t('time_vs_top.intro')}</p>
      <ol className="time-vs-top__list">
        {rows.map((row) => (
          <li key={row.question_id} className="time-vs-top__row">
            <span className="time-vs-top__question">
              {t('time_vs_top.question', {
                n: formatNumber(numberOf.get(row.question_id) ?? 0, i18n.language),
              })}
            </span>
            <span className="time-vs-top__pair">
              <span className="time-vs-top__bar-line">
                <span className="time-vs-top__bar time-vs-top__bar--you" style={{ width: width(row.seconds) }} />
                <span className="time-vs-top__value">{t('time_vs_top.yours', { time: duration(row.seconds) })}</span>
              </span>
              {row.top_seconds !== null && (
                <span className="time-vs-top__bar-line">
                  <span className="time-vs-top__bar time-vs-top__bar--top" style={{ width: width(row.top_seconds) }} />
                  <span className="time-vs-top__value">
                    {t('time_vs_top.top', { time: duration(row.top_seconds) })}
                  </span>
                </span>
              )}
            </span>
          </li>
        ))}
      </ol>
    </section>
  )
}
