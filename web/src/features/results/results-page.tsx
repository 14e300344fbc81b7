import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { paths } from '../../lib/paths'
import { Alert } from '../../components/ui/alert'
import { Dialog } from '../../components/ui/dialog'
import { Loading } from '../../components/ui/loading'
import { useBilingual, useLanguage } from '../../i18n/use-bilingual'
import { RichText } from '../../components/ui/rich-text'
import { formatDate, formatDateTime, formatNumber, formatScore } from '../../lib/format'
import { resultQueries, type QuizResults } from './results.api'
import './results.css'
import './results.i18n'
import { buttonClass } from '../../components/ui/button'

export function Component() {
  const { t } = useTranslation('results')
  const pick = useBilingual()
  const language = useLanguage()
  const results = useQuery(resultQueries.list())
  const [openQuizId, setOpenQuizId] = useState<number | null>(null)

  const queryClient = useQueryClient()

  const chosen: QuizResults | undefined = results.data?.find((quiz) => quiz.id === openQuizId)
  const attempts = chosen ? [...chosen.attempts].sort((a, b) => a.attempt_number - b.attempt_number) : []
  // A quiz's attempts are open: the report is the next screen, so its code comes while they are read, and a tap on
  // one reads the report while the screen changes (issue 57: the first marked page within 3 s on a slow phone).
  const attemptsOpen = chosen !== undefined
  useEffect(() => {
    if (attemptsOpen) void import('./report-page')
  }, [attemptsOpen])

  return (
    <div className="results">
      <h1>{t('title')}</h1>
      {results.isPending ? (
        <Loading label={t('loading')} />
      ) : results.isError ? (
        <Alert kind="error">{t('load_failed')}</Alert>
      ) : results.data.length === 0 ? (
        <div className="card results__empty">
          <p>{t('empty')}</p>
          <Link className={buttonClass({ variant: 'primary' })} to={paths.home()}>
            {t('go_to_dashboard')}
          </Link>
        </div>
      ) : (
        <>
          <p className="muted">{t('intro')}</p>
          <ul className="results__list">
            {results.data.map((quiz) => (
              <li key={quiz.id}>
                <button
                  type="button"
                  className="results__quiz card"
                  aria-haspopup="dialog"
                  onClick={() => setOpenQuizId(quiz.id)}
                >
                  <RichText className="results__quiz-title" text={quiz.title} />
                  <span className="results__quiz-count">{t('attempt_count', { count: quiz.attempts.length })}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}

      <Dialog open={chosen !== undefined} title={chosen ? pick(chosen.title) : ''} onClose={() => setOpenQuizId(null)}>
        <ol className="attempts" aria-label={t('attempts_heading')}>
          {attempts.map((attempt) => (
            <li key={attempt.id} className="attempts__row">
              <div className="attempts__info">
                <p className="attempts__number">
                  {t('attempt_number', { number: attempt.attempt_number })}
                  {attempt.mode === 'paper' && <span className="badge badge--paper">{t('on_paper')}</span>}
                  {!attempt.ranked && <span className="badge badge--practice">{t('practice_unranked')}</span>}
                </p>
                <p>
                  {t('score')}: <strong className="attempts__score">{formatScore(attempt.score, language)}</strong>
                </p>
                {attempt.marking === 'pending' && (
                  <p className="attempts__written">
                    <span className="badge badge--pending">{t('written_part.awaiting')}</span>{' '}
                    {attempt.written && attempt.written.total > 1 && (
                      <span className="muted">
                        {t('written_part.released_of', {
                          released: formatNumber(attempt.written.released, language),
                          total: formatNumber(attempt.written.total, language),
                        })}
                      </span>
                    )}
                  </p>
                )}
                {attempt.marking === 'released' && attempt.written && (
                  <p className="attempts__written">
                    {t('written_part.marks', {
                      marks: formatScore(attempt.written.marks, language),
                      max: formatScore(attempt.written.max_marks, language),
                    })}
                  </p>
                )}
                <p className="muted">
                  {attempt.mode === 'paper' ? t('sat_on') : t('completed')}:{' '}
                  <time dateTime={attempt.completed_timestamp}>
                    {attempt.mode === 'paper'
                      ? formatDate(attempt.completed_timestamp, language)
                      : formatDateTime(attempt.completed_timestamp, language)}
                  </time>
                </p>
              </div>
              <Link
                className={buttonClass({ variant: 'primary' })}
                to={paths.report(attempt.id)}
                aria-label={t('view_report_for', { number: attempt.attempt_number })}
                onClick={() => void queryClient.prefetchQuery(resultQueries.report(attempt.id))}
              >
                {t('view_report')}
              </Link>
            </li>
          ))}
        </ol>
      </Dialog>
    </div>
  )
}
