import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { Dialog } from '../../../components/ui/dialog'
import { RichPreview } from '../../../components/ui/rich-text'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { PagedTable } from '../ui'
import { passageQueries, type Passage } from '../bank/passages.api'
import '../bank/bank.i18n'

const PICKER_PAGE_SIZE = 20
const PICKER_PREVIEW_LENGTH = 120

interface PassagePickerProps {
  sectionName: string
  /** Passages already in the paper: a passage may be in it once. */
  inPaper: Set<number>
  /** The passage goes to the section's end as one item (`{passage_id}`). */
  onPick: (passage: Passage) => void
  onClose: () => void
}

/** The bank's passages, searched as the passage list is, each added to the section as one item. */
export function PassagePicker({ sectionName, inPaper, onPick, onClose }: PassagePickerProps) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const [typed, setTyped] = useState('')
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const list = useQuery({
    ...passageQueries.list(search, page, PICKER_PAGE_SIZE),
    placeholderData: (previous) => previous,
  })
  const n = (value: number) => formatNumber(value, language)
  const title = t('paper.passage_picker_title', { section: sectionName })

  return (
    <Dialog open title={title} onClose={onClose} className="bank-picker">
      <form
        role="search"
        className="actions"
        onSubmit={(event) => {
          event.preventDefault()
          setSearch(typed)
          setPage(1)
        }}
      >
        <label className="field">
          <span className="field__label">{t('passages.search')}</span>
          <input type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
        </label>
        <Button type="submit">{t('passages.search')}</Button>
      </form>
      <PagedTable
        label={title}
        query={list}
        pageSize={PICKER_PAGE_SIZE}
        page={page}
        onPage={setPage}
        text={(key, values) => t(`passages.list.${key}`, values)}
        columns={[
          { label: t('passages.list_text') },
          { label: t('passages.list_questions'), numeric: true },
          { label: <span className="visually-hidden">{t('paper.passage_add')}</span> },
        ]}
      >
        {(row) => (
          <tr key={row.id}>
            <td>
              <RichPreview text={row.text} maxLength={PICKER_PREVIEW_LENGTH} />
            </td>
            <td className="numeric">{n(row.question_ids.length)}</td>
            <td>
              {inPaper.has(row.id) ? (
                <span className="muted">{t('paper.passage_in_paper')}</span>
              ) : (
                <Button
                  small
                  onClick={() => {
                    onPick(row)
                    onClose()
                  }}
                >
                  {t('paper.passage_add')}
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
