import { useTranslation } from 'react-i18next'
import { Pager } from '../../../components/ui/pager'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { TableHead, TableScroll } from '../ui'
import type { ImportDryRun, ImportRow, ImportRowStatus } from './import.api'
import { placeLabel } from './import-text'
import { Conversions, RowChanges, RowMessages } from './row-notes'
import { StoredQuestion } from './stored-question'
import './import.i18n'

export type StatusFilter = ImportRowStatus | 'all'
export const statuses: readonly ImportRowStatus[] = ['ok', 'fixed', 'rejected', 'duplicate']

/** Rows a page: a 5,000-question file would otherwise put tens of thousands of cells on the screen at once. */
export const ROWS_PAGE_SIZE = 100

export const isImportable = (row: ImportRow) => row.status === 'ok' || row.status === 'fixed'

interface FilterChipsProps {
  dryRun: ImportDryRun
  filter: StatusFilter
  onFilter: (filter: StatusFilter) => void
}

/** One toggle a status with its count; the one pressed filters the table. */
export function FilterChips({ dryRun, filter, onFilter }: FilterChipsProps) {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const count = (status: StatusFilter) =>
    formatNumber(status === 'all' ? dryRun.rows.length : dryRun.summary[status], language)
  return (
    <div className="import-chips" role="group" aria-label={t('filter_label')}>
      {(['all', ...statuses] as const).map((status) => (
        <button
          key={status}
          type="button"
          className={`import-chip import-chip--${status}`}
          aria-pressed={filter === status}
          onClick={() => onFilter(status)}
        >
          {t(`status.${status}`)} <span className="import-chip__count">{count(status)}</span>
        </button>
      ))}
    </div>
  )
}

interface RowsTableProps {
  dryRun: ImportDryRun
  filter: StatusFilter
  page: number
  onPage: (page: number) => void
  /** Importable rows the admin unticked: the commit leaves them out. */
  excluded: ReadonlySet<number>
  onExclude: (row: number, excluded: boolean) => void
  /** After the commit the choice is over. */
  locked: boolean
}

/** Every row of the dry run (or those of one status), a page at a time. */
export function RowsTable({ dryRun, filter, page, onPage, excluded, onExclude, locked }: RowsTableProps) {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language, { useGrouping: false })
  const rows = filter === 'all' ? dryRun.rows : dryRun.rows.filter((row) => row.status === filter)
  if (rows.length === 0) return <p className="card admin-empty">{t('table.empty')}</p>
  const pages = Math.max(1, Math.ceil(rows.length / ROWS_PAGE_SIZE))
  const current = Math.min(page, pages)
  const first = (current - 1) * ROWS_PAGE_SIZE
  const shown = rows.slice(first, first + ROWS_PAGE_SIZE)
  return (
    <>
      <TableScroll label={t('table.caption')}>
        <table className="admin-table import-table">
          <caption className="visually-hidden">{t('table.caption')}</caption>
          <TableHead
            columns={[
              { label: <span className="visually-hidden">{t('commit.legend')}</span> },
              { label: t('table.place') },
              { label: t('table.status') },
              { label: t('table.question') },
              { label: t('table.messages') },
            ]}
          />
          <tbody>
            {shown.map((row) => {
              const place = placeLabel(t, dryRun.format, row.row, language)
              return (
                <tr key={row.row} className={`import-row import-row--${row.status}`}>
                  <td>
                    {isImportable(row) && (
                      <input
                        type="checkbox"
                        checked={!excluded.has(row.row)}
                        disabled={locked}
                        onChange={(event) => onExclude(row.row, !event.target.checked)}
                        aria-label={`${t('commit.legend')}: ${place}`}
                      />
                    )}
                  </td>
                  <td className="import-place">{place}</td>
                  <td>
                    <span className={`import-status import-status--${row.status}`}>{t(`status.${row.status}`)}</span>
                  </td>
                  <td>
                    <StoredQuestion row={row} />
                    <RowChanges row={row} />
                    <Conversions row={row} />
                  </td>
                  <td>
                    <RowMessages row={row} format={dryRun.format} />
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </TableScroll>
      {pages > 1 && (
        <Pager
          page={current}
          pages={pages}
          onPage={onPage}
          previous={t('table.previous')}
          next={t('table.next')}
          label={t('table.page', {
            from: n(first + 1),
            to: n(first + shown.length),
            total: n(rows.length),
          })}
        />
      )}
    </>
  )
}
