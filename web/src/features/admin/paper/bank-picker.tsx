import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { useLanguage, scriptLang } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { RichPreview } from '../../../components/ui/rich-text'
import { PagedTable } from '../ui'
import { BankFilterFields } from '../bank/bank-filters'
import { bankQueries, filterQuery, noFilters, type BankFilters, type BankRow } from '../bank/bank.api'
import '../bank/bank.i18n'

const PICKER_PAGE_SIZE = 20
const PICKER_PREVIEW_LENGTH = 80

interface BankPickerProps {
  /** The section the questions go to, for the dialog's title. */
  sectionName: string
  /** Questions already in the paper: a question may be in it once. */
  inPaper: Set<number>
  /** The rows go to the section's end in the order given (the paper is saved in one request afterwards). */
  onPick: (rows: BankRow[]) => void
  onClose: () => void
}

/**
 * Fixed questions for a section, found with the bank's own filters; each "Add" puts one at the section's end, and
 * "Add all shown" every listed question not yet in the paper, in the list's order.
 */
export function BankPicker({ sectionName, inPaper, onPick, onClose }: BankPickerProps) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const [filters, setFilters] = useState<BankFilters>(noFilters)
  const [page, setPage] = useState(1)
  const facets = useQuery(bankQueries.facets())
  const list = useQuery({
    ...bankQueries.list(filters, page, PICKER_PAGE_SIZE),
    placeholderData: (previous) => previous,
  })
  const n = (value: number) => formatNumber(value, language)
  const addable = (list.isPlaceholderData ? [] : (list.data?.results ?? [])).filter((row) => !inPaper.has(row.id))

  return (
    <Dialog open title={t('paper.picker_title', { section: sectionName })} onClose={onClose} className="bank-picker">
      <BankFilterFields
        key={filterQuery(filters)}
        filters={filters}
        facets={facets.data}
        onChange={(next) => {
          setFilters(next)
          setPage(1)
        }}
      />
      <p className="actions">
        <Button disabled={addable.length === 0} onClick={() => onPick(addable)}>
          {t('paper.add_all_shown', { count: addable.length, n: n(addable.length) })}
        </Button>
      </p>
      <PagedTable
        label={t('paper.picker_title', { section: sectionName })}
        query={list}
        pageSize={PICKER_PAGE_SIZE}
        page={page}
        onPage={setPage}
        text={(key, values) => t(`list.${key}`, values)}
        columns={[
          { label: t('list.question') },
          { label: t('list.topic') },
          { label: t('list.difficulty') },
          { label: <span className="visually-hidden">{t('paper.add')}</span> },
        ]}
      >
        {(row) => (
          <tr key={row.id}>
            <td>
              <span className="muted">#{n(row.id)}</span>{' '}
              <RichPreview text={row.text} maxLength={PICKER_PREVIEW_LENGTH} />
            </td>
            <td lang={scriptLang(row.topic, language)}>{row.topic || '—'}</td>
            <td>{row.difficulty ? t(`difficulty.${row.difficulty}`) : t('difficulty.unrated')}</td>
            <td>
              {inPaper.has(row.id) ? (
                <span className="muted">{t('paper.in_paper')}</span>
              ) : (
                <Button small onClick={() => onPick([row])} aria-label={t('paper.add_named', { id: n(row.id) })}>
                  {t('paper.add')}
                </Button>
              )}
            </td>
          </tr>
        )}
      </PagedTable>
      <p className="actions">
        <Button variant="primary" onClick={onClose}>
          {t('paper.picker_done')}
        </Button>
      </p>
    </Dialog>
  )
}
