import type { ReportAnalysis } from '@quiz/contracts'
import { LangRuns } from '../../components/ui/lang-runs'
import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatNumber, formatScore } from '../../lib/format'
import './results.i18n'

/** Topics whose wrong answers cost more than their right answers earned (WEB.md): 0.2 × incorrect > correct. */
export function costlyTopics(topics: ReportAnalysis['topics']) {
  return topics.filter((topic) => topic.incorrect * 0.2 > topic.correct + 1e-9)
}

/** WEB.md "Report, progress and practice": where the attempt stands, what wrong answers cost, and topic by topic. */
export function AnalysisPanel({ analysis }: { analysis: ReportAnalysis }) {
  const { t } = useTranslation('results')
  const language = useLanguage()
  const topicName = (topic: string | null) => topic ?? t('standing.no_topic')
  const costly = costlyTopics(analysis.topics)

  return (
    <section className="card standing" aria-labelledby="standing-heading">
      <h2 id="standing-heading">{t('standing.title')}</h2>
      <dl className="standing__figures">
        <div>
          <dt>{t('standing.rank')}</dt>
          <dd>{t('standing.rank_of', { rank: analysis.rank, participants: analysis.participants })}</dd>
        </div>
        <div>
          <dt>{t('standing.percentile')}</dt>
          <dd>{formatNumber(analysis.percentile, language, { maximumFractionDigits: 2 })}</dd>
        </div>
        <div>
          <dt>{t('standing.average')}</dt>
          <dd>{formatScore(analysis.average_score, language)}</dd>
        </div>
        <div>
          <dt>{t('standing.highest')}</dt>
          <dd>{formatScore(analysis.highest_score, language)}</dd>
        </div>
        <div>
          <dt>{t('standing.negative_marks')}</dt>
          <dd>{formatScore(analysis.negative_marks, language)}</dd>
        </div>
      </dl>
      <p className="muted">{t('standing.explained')}</p>

      <h3 id="standing-topics">{t('standing.topics')}</h3>
      {/* Scrolls sideways on the narrowest phones. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling block must take focus to scroll by keyboard (axe scrollable-region-focusable) */}
      <div className="table-scroll" tabIndex={0} role="group" aria-labelledby="standing-topics">
        <table className="topic-table stack-table">
          <thead>
            <tr>
              <th scope="col">{t('standing.topic')}</th>
              {/* Short column names, so the table fits a 360 px phone without scrolling. */}
              <th scope="col">{t('standing.col_correct')}</th>
              <th scope="col">{t('standing.col_incorrect')}</th>
              <th scope="col">{t('standing.col_unanswered')}</th>
              <th scope="col">{t('score')}</th>
            </tr>
          </thead>
          <tbody>
            {analysis.topics.map((topic) => {
              const total = topic.correct + topic.incorrect + topic.unanswered
              const share = (count: number) => (total === 0 ? 0 : (100 * count) / total)
              return (
                <tr key={topic.topic ?? ''}>
                  <th scope="row">
                    <LangRuns text={topicName(topic.topic)} />
                    {/* The bar repeats the row's counts as a picture; the cells carry the figures. */}
                    <span className="topic-bar" aria-hidden="true">
                      <span className="topic-bar__correct" style={{ width: `${share(topic.correct)}%` }} />
                      <span className="topic-bar__incorrect" style={{ width: `${share(topic.incorrect)}%` }} />
                    </span>
                  </th>
                  <td data-label={t('standing.col_correct')}>{formatNumber(topic.correct, language)}</td>
                  <td data-label={t('standing.col_incorrect')}>{formatNumber(topic.incorrect, language)}</td>
                  <td data-label={t('standing.col_unanswered')}>{formatNumber(topic.unanswered, language)}</td>
                  <td data-label={t('score')}>{formatScore(topic.score, language)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      {costly.length > 0 && (
        <p className="standing__advice" role="note">
          {t('standing.advice', {
            count: costly.length,
            topics: costly.map((topic) => topicName(topic.topic)).join(', '),
          })}
        </p>
      )}
    </section>
  )
}

/** Seconds as "45 s" or "2 min 5 s" in the language's words and digits. */
export function useDuration() {
  const { t } = useTranslation('results')
  return (seconds: number) =>
    seconds < 60
      ? t('time.seconds', { seconds })
      : t('time.minutes', { minutes: Math.floor(seconds / 60), seconds: seconds % 60 })
}
