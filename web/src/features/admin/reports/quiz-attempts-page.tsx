import { useRouteId } from '../../../lib/route-id'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import '../institutions.i18n'
import { Alert } from '../../../components/ui/alert'
import { formatDateTime, formatScore, toDevanagariDigits } from '../../../lib/format'
import { formatNumber } from '../../../lib/format'
import { downloadAttemptsCsv, reportQueries, ATTEMPTS_PAGE_SIZE, type AttemptSelection } from './reports.api'
import { QuizTabHeader } from '../quizzes/quiz-tabs'
import '../admin.css'
import { PagedTable } from '../ui'
import { Button } from '../../../components/ui/button'

const SELECTIONS: AttemptSelection[] = ['all', 'first', 'best']

/** /admin/quiz/{id}/attempts: every finished attempt in a table (all, first or best), 50 a page, and the CSV. */
export function Component() {
  const { t, i18n } = useTranslation('institutions')
  const quizId = useRouteId('quizId') ?? 0
  const [which, setWhich] = useState<AttemptSelection>('all')
  const [page, setPage] = useState(1)
  const [download, setDownload] = useState<'idle' | 'busy' | 'failed'>('idle')
  const attempts = useQuery({
    ...reportQueries.attempts(quizId, which, page),
    enabled: quizId > 0,
    placeholderData: (previous) => previous,
  })
  const language = i18n.language
  const n = (value: number) => formatNumber(value, language, { useGrouping: false })
  const score = (value: number) => (language === 'ne' ? toDevanagariDigits(formatScore(value)) : formatScore(value))
  const duration = (seconds: number) =>
    t('attempts.minutes_seconds', { minutes: n(Math.floor(seconds / 60)), seconds: n(seconds % 60) })

  const startDownload = async () => {
    setDownload('busy')
    try {
      await downloadAttemptsCsv(quizId, which)
      setDownload('idle')
    } catch {
      setDownload('failed')
    }
  }

  return (
    <div className="admin">
      <QuizTabHeader quizId={quizId} titleKey="attempts.title" />
      <div className="admin-toolbar">
        <div className="field admin-filter">
          <label htmlFor="attempts-which">{t('attempts.which')}</label>
          <select
            id="attempts-which"
            value={which}
            onChange={(event) => {
              setWhich(event.target.value as AttemptSelection)
              setPage(1)
            }}
          >
            {SELECTIONS.map((value) => (
              <option key={value} value={value}>
                {t(`attempts.which_${value}`)}
              </option>
            ))}
          </select>
        </div>
        <Button variant="primary" disabled={download === 'busy'} onClick={startDownload}>
          {download === 'busy' ? t('attempts.downloading') : t('attempts.download')}
        </Button>
      </div>
      <p className="muted admin-hint">{t('attempts.download_hint')}</p>
      {download === 'failed' && <Alert kind="error">{t('attempts.download_failed')}</Alert>}

      <PagedTable
        label={t('attempts.title')}
        query={attempts}
        pageSize={ATTEMPTS_PAGE_SIZE}
        page={page}
        onPage={setPage}
        text={(key, values) => t(`attempts.${key}`, values)}
        columns={[
          { label: t('attempts.learner') },
          { label: t('attempts.attempt') },
          { label: t('attempts.score'), numeric: true },
          { label: t('attempts.correct'), numeric: true },
          { label: t('attempts.incorrect'), numeric: true },
          { label: t('attempts.unanswered'), numeric: true },
          { label: t('attempts.started') },
          { label: t('attempts.duration') },
          { label: t('attempts.late') },
        ]}
      >
        {(row) => (
          <tr key={row.attempt_id}>
            <td>
              {row.user.full_name || row.user.username}
              {row.user.full_name && <span className="muted admin-sub">{row.user.username}</span>}
            </td>
            <td>{n(row.attempt_number)}</td>
            <td className="admin-num">{score(row.score)}</td>
            <td className="admin-num">{n(row.correct)}</td>
            <td className="admin-num">{n(row.incorrect)}</td>
            <td className="admin-num">{n(row.unanswered)}</td>
            <td>{formatDateTime(row.started_at, language)}</td>
            <td>{duration(row.duration_seconds)}</td>
            <td>{row.late ? t('attempts.late_yes') : t('attempts.late_no')}</td>
          </tr>
        )}
      </PagedTable>
    </div>
  )
}
