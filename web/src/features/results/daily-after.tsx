import type { DailyToday, Leaderboard } from '@quiz/contracts'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../api/client'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { formatNumber } from '../../lib/format'
import { StreakFacts } from '../../components/daily/streak-facts'
import { TopEntriesTable } from '../../components/top-entries-table'
import '../../components/daily/daily.css'
import '../../i18n/daily.i18n'

/** `GET /api/daily/{date}/leaderboard/`: the day's first attempts, moving while the day runs (read afresh). */
const dailyBoardQuery = (day: string) =>
  queryOptions({
    queryKey: ['daily', 'board', day] as const,
    queryFn: ({ signal }) => api.get<Leaderboard>(`/daily/${day}/leaderboard/`, { signal }),
    staleTime: 0,
  })

/**
 * Under the report of today's set (WEB.md "The daily set": "After the set: the report, then the day's leaderboard
 * and the streak updated"). `today` is `GET /api/daily/` read after the submit, so its streak counts this set.
 */
export function DailyAfter({ today }: { today: DailyToday }) {
  const { t } = useTranslation('daily')
  const board = useQuery(dailyBoardQuery(today.date.ad))
  return (
    <section className="card daily-after" aria-labelledby="daily-after-title">
      <h2 id="daily-after-title">{t('after.title')}</h2>
      {board.isPending ? (
        <Loading label={t('after.loading')} />
      ) : board.isError ? (
        <Alert kind="error">{t('after.load_failed')}</Alert>
      ) : (
        <DayBoard board={board.data} />
      )}
      <h3>{t('after.streak_title')}</h3>
      <StreakFacts streak={today.streak} />
    </section>
  )
}

function DayBoard({ board }: { board: Leaderboard }) {
  const { t, i18n } = useTranslation('daily')
  const language = i18n.language
  const { me } = board
  return (
    <>
      <dl className="daily-streak__facts">
        <div>
          <dt>{t('after.participants')}</dt>
          <dd>{formatNumber(board.participants, language)}</dd>
        </div>
        {me && (
          <div>
            <dt>{t('after.your_rank')}</dt>
            <dd>
              {t('after.rank_of', {
                rank: formatNumber(me.rank, language),
                participants: formatNumber(board.participants, language),
              })}
            </dd>
          </div>
        )}
      </dl>
      {board.top.length <= 1 && <p className="muted">{t('after.empty')}</p>}
      {board.top.length > 0 && (
        <TopEntriesTable
          className="daily-board"
          entries={board.top}
          caption={t('after.top')}
          columns={{ rank: t('after.col_rank'), name: t('after.col_name'), score: t('after.col_score') }}
        />
      )}
    </>
  )
}
