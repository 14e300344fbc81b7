import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../api/api-error'
import { availableQuizzesQuery } from '../../api/available-quizzes'
import { LanguageToggle } from '../../components/layout/language-switcher'
import { Alert } from '../../components/ui/alert'
import { buttonClass } from '../../components/ui/button'
import { Loading } from '../../components/ui/loading'
import { TopEntriesTable } from '../../components/top-entries-table'
import { useBilingualLang, useLanguage } from '../../i18n/use-bilingual'
import { formatNumber, formatScore } from '../../lib/format'
import { paths } from '../../lib/paths'
import { useRouteId } from '../../lib/route-id'
import { leaderboardQuery, type Leaderboard } from './live.api'
import './live.css'
import './live.i18n'

/** /quiz/{id}/leaderboard (WEB.md "Live mocks"): where the live mock stands, the top 20 and the learner's own place. */
export function Component() {
  const { t } = useTranslation('live')
  const pick = useBilingualLang()
  const quizId = useRouteId('quizId')
  const board = useQuery({ ...leaderboardQuery(quizId ?? 0), enabled: quizId !== null })
  // The title, when the mock is still in the learner's list (it leaves it once its challenge window closes).
  const quizzes = useQuery({ ...availableQuizzesQuery(), enabled: quizId !== null })
  const quiz = quizzes.data?.find((entry) => entry.id === quizId)
  const title = quiz ? pick(quiz.title) : null

  const notFound = quizId === null || (board.error instanceof ApiError && board.error.status === 404)

  return (
    <section className="leaderboard" aria-labelledby="leaderboard-title">
      <div className="page-header">
        <h1 id="leaderboard-title">{t('title')}</h1>
        <LanguageToggle />
      </div>
      {title?.text && (
        <p className="leaderboard__quiz" lang={title.lang}>
          {title.text}
        </p>
      )}
      {notFound ? (
        <Alert kind="error">{t('not_found')}</Alert>
      ) : board.isError ? (
        <Alert kind="error">{t('load_failed')}</Alert>
      ) : board.isPending ? (
        <Loading label={t('loading')} />
      ) : (
        <Standings board={board.data} />
      )}
      <p>
        <Link className={buttonClass()} to={paths.home()}>
          {t('back')}
        </Link>
      </p>
    </section>
  )
}

function Standings({ board }: { board: Leaderboard }) {
  const { t } = useTranslation('live')
  const language = useLanguage()
  const ranked = board.status === 'provisional' || board.status === 'final'
  const { me } = board

  return (
    <>
      <p className={`leaderboard__status leaderboard__status--${board.status}`}>{t(`status.${board.status}`)}</p>
      <dl className="leaderboard__figures">
        <div>
          <dt>{t('participants')}</dt>
          <dd>{formatNumber(board.participants, language)}</dd>
        </div>
        {me && (
          <>
            <div>
              <dt>{t('your_rank')}</dt>
              <dd>
                {t('rank_of', {
                  rank: formatNumber(me.rank, language),
                  participants: formatNumber(board.participants, language),
                })}
              </dd>
            </div>
            <div>
              <dt>{t('percentile')}</dt>
              <dd>{formatNumber(me.percentile, language, { maximumFractionDigits: 2 })}</dd>
            </div>
            <div>
              <dt>{t('your_score')}</dt>
              <dd>{formatScore(me.score, language)}</dd>
            </div>
          </>
        )}
      </dl>
      {ranked && !me && <p className="muted">{t('no_rank')}</p>}
      {ranked &&
        (board.top.length === 0 ? (
          <p className="card">{t('empty')}</p>
        ) : (
          // Scrolls sideways if a long name does not fit a 360 px phone.
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling block must take focus to scroll by keyboard (axe scrollable-region-focusable)
          <div className="leaderboard__scroll card" tabIndex={0} role="group" aria-labelledby="leaderboard-top">
            <TopEntriesTable
              className="leaderboard__table"
              entries={board.top}
              caption={t('top')}
              captionId="leaderboard-top"
              columns={{ rank: t('col_rank'), name: t('col_name'), score: t('col_score') }}
            />
          </div>
        ))}
    </>
  )
}
