import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import './progress.i18n'
import { Link } from 'react-router'
import { Alert } from '../../components/ui/alert'
import { ChartTable } from './chart-table'
import { Loading } from '../../components/ui/loading'
import { useLanguage, scriptLang } from '../../i18n/use-bilingual'
import { RichText } from '../../components/ui/rich-text'
import { formatDateTime, formatNumber, formatScore } from '../../lib/format'
import { paths } from '../../lib/paths'
import { ScoreTrendChart, scorePercent, TopicAccuracyChart, topicAccuracy } from './progress-charts'
import { progressQuery } from './progress.api'
import './progress.css'
import { buttonClass } from '../../components/ui/button'

/** WEB.md "My Progress": the score of every attempt over time and accuracy by topic, as charts and as tables. */
export function Component() {
  const { t } = useTranslation('progress')
  const language = useLanguage()
  const progress = useQuery(progressQuery())

  if (progress.isError) return <Alert kind="error">{t('load_failed')}</Alert>
  if (progress.isPending) return <Loading label={t('loading')} />
  const { attempts, topics } = progress.data

  return (
    <div className="progress stack">
      <div className="page-header">
        <h1>{t('title')}</h1>
      </div>
      {attempts.length === 0 ? (
        <div className="card">
          <p>{t('empty')}</p>
          <Link className={buttonClass({ variant: 'primary' })} to={paths.home()}>
            {t('go_to_dashboard')}
          </Link>
        </div>
      ) : (
        <>
          <section className="card" aria-labelledby="trend-heading">
            <h2 id="trend-heading">{t('trend.title')}</h2>
            <p className="muted">{t('trend.explained')}</p>
            <ScoreTrendChart attempts={attempts} />
            <ChartTable
              caption={t('trend.title')}
              headers={[t('trend.completed'), t('trend.quiz'), t('trend.score'), t('trend.percent')]}
            >
              {attempts.map((attempt) => (
                <tr key={attempt.attempt_id}>
                  <td>{formatDateTime(attempt.completed_timestamp, language)}</td>
                  <RichText as="td" text={attempt.quiz.title} />
                  <td>
                    {t('trend.score_of', {
                      score: formatScore(attempt.score, language),
                      // The paper's maximum (API.md "Papers"): its questions when each is worth one mark.
                      total: formatNumber(attempt.max_score, language, { maximumFractionDigits: 2 }),
                    })}
                  </td>
                  <td>{formatNumber(scorePercent(attempt), language)}%</td>
                </tr>
              ))}
            </ChartTable>
          </section>

          <section className="card" aria-labelledby="topics-heading">
            <h2 id="topics-heading">{t('topics.title')}</h2>
            <TopicAccuracyChart topics={topics} />
            <ChartTable
              caption={t('topics.title')}
              headers={[
                t('topics.topic'),
                t('topics.correct'),
                t('topics.incorrect'),
                t('topics.unanswered'),
                t('topics.accuracy'),
              ]}
            >
              {topics.map((topic) => (
                <tr key={topic.topic ?? ''}>
                  <th scope="row" lang={scriptLang(topic.topic, language)}>
                    {topic.topic ?? t('no_topic')}
                  </th>
                  <td>{formatNumber(topic.correct, language)}</td>
                  <td>{formatNumber(topic.incorrect, language)}</td>
                  <td>{formatNumber(topic.unanswered, language)}</td>
                  <td>{formatNumber(topicAccuracy(topic), language)}%</td>
                </tr>
              ))}
            </ChartTable>
          </section>
        </>
      )}
    </div>
  )
}
