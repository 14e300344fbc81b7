import type { Leaderboard } from '@quiz/contracts'
import { useLanguage } from '../i18n/use-bilingual'
import { formatNumber, formatScore } from '../lib/format'

/** A leaderboard's top entries, rank, name and score: a live mock's board and the daily set's (WEB.md). */
export function TopEntriesTable({
  entries,
  caption,
  captionId,
  columns,
  className,
}: {
  entries: Leaderboard['top']
  caption: string
  captionId?: string
  columns: { rank: string; name: string; score: string }
  className: string
}) {
  const language = useLanguage()
  return (
    <table className={className}>
      <caption id={captionId}>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{columns.rank}</th>
          <th scope="col">{columns.name}</th>
          <th scope="col">{columns.score}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry, index) => (
          <tr key={index}>
            <td>{formatNumber(entry.rank, language)}</td>
            <th scope="row">{entry.name}</th>
            <td>{formatScore(entry.score, language)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
