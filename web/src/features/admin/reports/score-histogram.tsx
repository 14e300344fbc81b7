import { useTranslation } from 'react-i18next'
import '../institutions.i18n'
import { formatNumber } from '../../../lib/format'

export interface HistogramBin {
  from: number
  to: number
  count: number
}

/**
 * About ten bins of whole marks from the lowest possible score shown (0, or lower when negative marking took a
 * score below 0) to the quiz's full marks; the top bin includes full marks.
 */
export function binScores(scores: readonly number[], fullMarks: number): HistogramBin[] {
  const lowest = Math.min(0, ...scores)
  const from = Math.floor(lowest)
  const to = Math.max(fullMarks, Math.ceil(Math.max(0, ...scores)), from + 1)
  const width = Math.max(1, Math.ceil((to - from) / 10))
  const count = Math.ceil((to - from) / width)
  const bins = Array.from({ length: count }, (_, i) => ({
    from: from + i * width,
    to: Math.min(to, from + (i + 1) * width),
    count: 0,
  }))
  for (const score of scores) bins[Math.min(count - 1, Math.floor((score - from) / width))]!.count++
  return bins
}

const WIDTH = 640
const HEIGHT = 220
const PAD = { top: 20, right: 8, bottom: 28, left: 8 }

/** Plain SVG (no chart library for one bar chart), with the same figures in a table for screen readers. */
export function ScoreHistogram({ scores, fullMarks }: { scores: readonly number[]; fullMarks: number }) {
  const { t, i18n } = useTranslation('institutions')
  const n = (value: number) => formatNumber(value, i18n.language, { useGrouping: false })
  const bins = binScores(scores, fullMarks)
  const max = Math.max(1, ...bins.map((bin) => bin.count))
  const slot = (WIDTH - PAD.left - PAD.right) / bins.length
  const plot = HEIGHT - PAD.top - PAD.bottom
  return (
    <figure className="histogram">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t('statistics.histogram_label')}>
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={HEIGHT - PAD.bottom}
          y2={HEIGHT - PAD.bottom}
          className="histogram__axis"
        />
        {bins.map((bin, i) => {
          const height = (bin.count / max) * plot
          const x = PAD.left + i * slot
          return (
            <g key={bin.from}>
              <rect
                x={x + slot * 0.1}
                width={slot * 0.8}
                y={HEIGHT - PAD.bottom - height}
                height={height}
                className="histogram__bar"
              />
              {bin.count > 0 && (
                <text
                  x={x + slot / 2}
                  y={HEIGHT - PAD.bottom - height - 4}
                  textAnchor="middle"
                  className="histogram__count"
                >
                  {n(bin.count)}
                </text>
              )}
              <text x={x} y={HEIGHT - 8} textAnchor={i === 0 ? 'start' : 'middle'} className="histogram__label">
                {n(bin.from)}
              </text>
            </g>
          )
        })}
        {/* Ticks mark the bins' edges, so the last bin's upper end (full marks) gets its own label. */}
        <text x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end" className="histogram__label">
          {n(bins.at(-1)!.to)}
        </text>
      </svg>
      <table className="visually-hidden">
        <caption>{t('statistics.histogram_label')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('statistics.histogram_range_header')}</th>
            <th scope="col">{t('statistics.histogram_count')}</th>
          </tr>
        </thead>
        <tbody>
          {bins.map((bin) => (
            <tr key={bin.from}>
              <td>{t('statistics.histogram_range', { from: n(bin.from), to: n(bin.to) })}</td>
              <td>{n(bin.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
