import type { Bilingual } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { Pager } from '../../../components/ui/pager'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { TableHead } from '../ui'
import type { ImportDryRun, ImportMessage, ImportRow, ImportRowStatus } from './import.api'
import { optionLetter } from '../../../lib/option-letters'
import { fieldLabel, messageText, placeLabel } from './import-text'
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

/** Both languages of a text, each marked with its language so a screen reader reads it right. */
function BothLanguages({ text, className }: { text: Bilingual; className?: string }) {
  return (
    <>
      {text.en && (
        <span lang="en" className={className}>
          {text.en}
        </span>
      )}
      {text.ne && (
        <span lang="ne" className={className}>
          {text.ne}
        </span>
      )}
    </>
  )
}

/** The question as the bank will store it: text, options with the correct one marked, and its bank fields. */
function StoredQuestion({ row }: { row: ImportRow }) {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const { question } = row
  const extras: [string, string][] = []
  if (question.topic) extras.push([t('table.topic'), question.topic])
  if (question.tags.length) extras.push([t('table.tags'), question.tags.join(', ')])
  if (question.difficulty) extras.push([t('table.difficulty'), t(`difficulty.${question.difficulty}`)])
  if (question.source) extras.push([t('table.source'), question.source])
  return (
    <div className="import-question">
      <p className="import-question__text">
        {question.text.en || question.text.ne ? <BothLanguages text={question.text} /> : t('table.no_text')}
      </p>
      {question.options.length > 0 && (
        <ol className="import-options">
          {question.options.map((option, index) => (
            <li key={index} className={option.is_correct ? 'import-option import-option--correct' : 'import-option'}>
              <span className="import-option__letter" aria-hidden="true">
                {optionLetter(index, language)}.
              </span>{' '}
              <BothLanguages text={option.text} />
              {option.is_correct && (
                <span className="badge badge--correct import-option__mark">
                  <span aria-hidden="true">✓ </span>
                  {t('table.correct')}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      {question.hint && (question.hint.en || question.hint.ne) && (
        <p className="import-question__extra">
          {t('table.hint')} <BothLanguages text={question.hint} />
        </p>
      )}
      {extras.length > 0 && (
        <p className="import-question__extra">
          {extras.map(([label, value]) => (
            <span key={label}>
              {label} {value}
            </span>
          ))}
        </p>
      )}
    </div>
  )
}

/**
 * The same sentence for several fields (a font converted in the question and each option) is one line naming
 * them all, so a converted row does not repeat itself four times.
 */
export function messageLines(
  messages: readonly ImportMessage[],
  say: (message: ImportMessage) => { field: string | null; text: string },
): { fields: string[]; text: string }[] {
  const lines: { fields: string[]; text: string }[] = []
  for (const message of messages) {
    const { field, text } = say(message)
    const same = lines.find((line) => line.text === text)
    if (same) {
      if (field && !same.fields.includes(field)) same.fields.push(field)
    } else lines.push({ fields: field ? [field] : [], text })
  }
  return lines
}

/** The row's reasons and what it duplicates. */
function RowMessages({ row, format }: { row: ImportRow; format: ImportDryRun['format'] }) {
  const { t } = useTranslation('import')
  const language = useLanguage()
  const duplicate = row.duplicate_of
  const lines = messageLines(row.messages, (message) => ({
    field: fieldLabel(t, message.field, language),
    text: messageText(t, message, language),
  }))
  return (
    <>
      {lines.length > 0 && (
        <ul className="import-messages">
          {lines.map(({ fields, text }, index) => (
            <li key={index}>
              {fields.length > 0 && <strong>{fields.join(', ')}: </strong>}
              {text}
            </li>
          ))}
        </ul>
      )}
      {duplicate && duplicate.question_id !== null && (
        <p className="import-duplicate">
          {t('duplicate_of.bank', { id: formatNumber(duplicate.question_id, language, { useGrouping: false }) })}
        </p>
      )}
      {duplicate && duplicate.question_id === null && duplicate.row !== null && (
        <p className="import-duplicate">
          {t('duplicate_of.row', { place: placeLabel(t, format, duplicate.row, language) })}
        </p>
      )}
    </>
  )
}

/** Each legacy-font conversion of the row: as typed beside the Unicode it became, for the admin to check. */
function Conversions({ row }: { row: ImportRow }) {
  const { t } = useTranslation('import')
  const language = useLanguage()
  if (row.converted.length === 0) return null
  return (
    <table className="import-conversions">
      <caption>{t('table.converted')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('table.field')}</th>
          <th scope="col">{t('table.original')}</th>
          <th scope="col">{t('table.unicode')}</th>
        </tr>
      </thead>
      <tbody>
        {row.converted.map((conversion, index) => (
          <tr key={index}>
            <th scope="row">{fieldLabel(t, conversion.field, language) ?? conversion.field}</th>
            {/* The original is Latin letters (how Preeti stores Nepali): not marked as Nepali. */}
            <td className="import-conversions__original">{conversion.original}</td>
            <td lang="ne">{conversion.unicode}</td>
          </tr>
        ))}
      </tbody>
    </table>
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
      <div className="admin-table-wrap">
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
      </div>
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
