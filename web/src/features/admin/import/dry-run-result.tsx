import { useQuery } from '@tanstack/react-query'
import { useId, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { paths } from '../../../lib/paths'
import { adminQueries } from '../quizzes/quizzes.api'
import { QuizOptions } from '../ui'
import { BANK_IDS_LIMIT, importableCount, useCommitImport, type ImportDryRun } from './import.api'
import { FilterChips, isImportable, RowsTable, type StatusFilter } from './import-rows'
import { commitErrorText, placeLabel } from './import-text'
import './import.i18n'

/** The dry run: its summary (announced), the status chips, the rows, and the commit. */
export function DryRunResult({ dryRun }: { dryRun: ImportDryRun }) {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const [filter, setFilter] = useState<StatusFilter>('all')
  const [page, setPage] = useState(1)
  const [excluded, setExcluded] = useState<ReadonlySet<number>>(new Set())
  const { summary } = dryRun
  return (
    <section className="import-result" aria-labelledby="import-result-title">
      <h2 id="import-result-title" className="visually-hidden">
        {t('table.caption')}
      </h2>
      <p className="import-summary" role="status" aria-live="polite">
        {t('settings.detected', { format: t(`formats.${dryRun.format}`) })}{' '}
        {t('summary', {
          total: n(dryRun.rows.length),
          ok: n(summary.ok),
          fixed: n(summary.fixed),
          rejected: n(summary.rejected),
          duplicate: n(summary.duplicate),
        })}
      </p>
      <FilterChips
        dryRun={dryRun}
        filter={filter}
        onFilter={(next) => {
          setFilter(next)
          setPage(1)
        }}
      />
      <CommitPanel dryRun={dryRun} excluded={excluded}>
        {(locked) => (
          <RowsTable
            dryRun={dryRun}
            filter={filter}
            page={page}
            onPage={setPage}
            excluded={excluded}
            locked={locked}
            onExclude={(row, out) =>
              setExcluded((current) => {
                const next = new Set(current)
                if (out) next.add(row)
                else next.delete(row)
                return next
              })
            }
          />
        )}
      </CommitPanel>
    </section>
  )
}

interface CommitPanelProps {
  dryRun: ImportDryRun
  excluded: ReadonlySet<number>
  children: (locked: boolean) => ReactNode
}

/** "Import N questions", optionally into a quiz; then what was imported and the way to it in the bank. */
function CommitPanel({ dryRun, excluded, children }: CommitPanelProps) {
  const { t } = useTranslation('import')
  const pick = useBilingual()
  const language = useLanguage()
  const id = useId()
  const n = (value: number) => formatNumber(value, language)
  const quizzes = useQuery(adminQueries.list())
  const commit = useCommitImport()
  const [quizId, setQuizId] = useState('')
  const [sentRows, setSentRows] = useState<number[] | undefined>()
  const chosen = dryRun.rows.filter((row) => isImportable(row) && !excluded.has(row.row)).map((row) => row.row)
  const count = excluded.size === 0 ? importableCount(dryRun) : chosen.length
  const quizTitle = quizzes.data?.find((quiz) => String(quiz.id) === quizId)?.title

  const send = () => {
    // Every importable row is the server's default; only a narrowed choice is named.
    const rows = excluded.size === 0 ? undefined : chosen
    setSentRows(rows)
    commit.mutate({ importId: dryRun.import_id, quizId: quizId ? Number(quizId) : null, rows })
  }
  const result = commit.data
  const ids = result?.question_ids ?? []

  const panel = (
    <div className="card import-commit">
      {importableCount(dryRun) === 0 ? (
        <p>{t('commit.nothing')}</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor={`${id}-quiz`}>{t('commit.quiz')}</label>
            <select
              id={`${id}-quiz`}
              value={quizId}
              disabled={result !== undefined}
              onChange={(event) => setQuizId(event.target.value)}
            >
              <option value="">{t('commit.no_quiz')}</option>
              <QuizOptions quizzes={quizzes.data} />
            </select>
          </div>
          {result === undefined && (
            <Button variant="primary" disabled={commit.isPending || count === 0} onClick={send}>
              {commit.isPending ? t('commit.busy') : t('commit.button', { count, n: n(count) })}
            </Button>
          )}
        </>
      )}
      {commit.isError && (
        <Alert kind="error">
          {commitErrorText(t, commit.error, sentRows, (row) => placeLabel(t, dryRun.format, row, language))}
        </Alert>
      )}
      {result && (
        <Alert kind="success">
          {t('commit.done', { imported: n(result.imported), duplicates: n(result.duplicates) })}
          {quizTitle && result.imported > 0 && ` ${t('commit.done_quiz', { quiz: pick(quizTitle) })}`}
          {ids.length > 0 && (
            <>
              {' '}
              <Link to={paths.adminBankIds(ids.slice(0, BANK_IDS_LIMIT))}>
                {ids.length > BANK_IDS_LIMIT
                  ? t('commit.open_bank_first', { n: n(BANK_IDS_LIMIT) })
                  : t('commit.open_bank')}
              </Link>
            </>
          )}
        </Alert>
      )}
    </div>
  )
  return (
    <>
      {panel}
      {children(result !== undefined)}
    </>
  )
}
