import { useTranslation } from 'react-i18next'
import './progress.i18n'
import { useLanguage, scriptLang } from '../../i18n/use-bilingual'
import { formatDate, formatNumber } from '../../lib/format'
import type { Progress } from './progress.api'

/**
 * An attempt's score as a share of its maximum (API.md "Papers": progress entries carry `max_score`), or of its
 * questions where an entry has no maximum (WEB.md); 0 for an attempt with neither.
 */
export const scorePercent = (
  attempt: Pick<Progress['attempts'][number], 'score' | 'total_questions'> & { max_score?: number },
) => {
  const max = attempt.max_score ?? attempt.total_questions
  return max === 0 ? 0 : (100 * attempt.score) / max
}

/** Right answers as a percentage of a topic's questions. */
export const topicAccuracy = (topic: Progress['topics'][number]) => {
  const total = topic.correct + topic.incorrect + topic.unanswered
  return total === 0 ? 0 : (100 * topic.correct) / total
}

const WIDTH = 320
const HEIGHT = 180
const PAD = { left: 40, right: 10, top: 10, bottom: 26 }

/**
 * The score trend as a plain SVG line (no chart library: one line and a few labels). It scales to its box, so it
 * reads at 360 px; the table beside it carries the same figures for screen readers.
 */
export function ScoreTrendChart({ attempts }: { attempts: Progress['attempts'] }) {
  const { t } = useTranslation('progress')
  const language = useLanguage()
  const values = attempts.map(scorePercent)
  // Scores may be negative (-0.2 per wrong answer): the axis goes below 0 only when one is.
  const low = Math.min(0, Math.floor(Math.min(...values) / 10) * 10)
  const x = (index: number) =>
    PAD.left + (attempts.length === 1 ? 0.5 : index / (attempts.length - 1)) * (WIDTH - PAD.left - PAD.right)
  const y = (value: number) => PAD.top + ((100 - value) / (100 - low)) * (HEIGHT - PAD.top - PAD.bottom)
  const ticks = low < 0 ? [low, 0, 50, 100] : [0, 50, 100]
  const points = values.map((value, index) => `${x(index)},${y(value)}`).join(' ')

  return (
    <svg className="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t('trend.chart_label')}>
      {ticks.map((tick) => (
        <g key={tick}>
          <line className="chart__grid" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
          <text className="chart__label" x={PAD.left - 4} y={y(tick) + 4} textAnchor="end">
            {formatNumber(tick, language)}%
          </text>
        </g>
      ))}
      <polyline className="chart__line" points={points} fill="none" />
      {values.map((value, index) => (
        <circle key={attempts[index]!.attempt_id} className="chart__point" cx={x(index)} cy={y(value)} r={3.5} />
      ))}
      <text className="chart__label" x={PAD.left} y={HEIGHT - 6} textAnchor="start">
        {formatDate(attempts[0]!.completed_timestamp, language)}
      </text>
      {attempts.length > 1 && (
        <text className="chart__label" x={WIDTH - PAD.right} y={HEIGHT - 6} textAnchor="end">
          {formatDate(attempts.at(-1)!.completed_timestamp, language)}
        </text>
      )}
    </svg>
  )
}

const BAR_ROW = 40

/** Accuracy by topic as horizontal bars: the topic's name above its bar, so long names fit on a phone. */
export function TopicAccuracyChart({ topics }: { topics: Progress['topics'] }) {
  const { t } = useTranslation('progress')
  const language = useLanguage()
  const height = topics.length * BAR_ROW + 4
  return (
    <svg className="chart" viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={t('topics.chart_label')}>
      {topics.map((topic, index) => {
        const accuracy = topicAccuracy(topic)
        const top = index * BAR_ROW
        const barWidth = WIDTH - 56
        return (
          <g key={topic.topic ?? ''}>
            <text
              className="chart__label chart__label--topic"
              x={0}
              y={top + 14}
              lang={scriptLang(topic.topic, language)}
            >
              {topic.topic ?? t('no_topic')}
            </text>
            <rect className="chart__track" x={0} y={top + 21} width={barWidth} height={12} rx={5} />
            <rect className="chart__bar" x={0} y={top + 21} width={(barWidth * accuracy) / 100} height={12} rx={5} />
            <text className="chart__label" x={WIDTH} y={top + 32} textAnchor="end">
              {formatNumber(accuracy, language)}%
            </text>
          </g>
        )
      })}
    </svg>
  )
}
