import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { RichPreview } from '../../../components/ui/rich-text'
import { scriptLang, useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { UpdateAvailable } from '../platform-bank/update-from-source'
import type { BankRow } from './bank.api'
import './bank.i18n'

/** WEB.md "Question bank": the list's text preview, like the quiz's question list. */
export const BANK_PREVIEW_LENGTH = 80

interface BankTableRowProps {
  row: BankRow
  selected: boolean
  onSelect: (on: boolean) => void
  onEdit: () => void
  onDelete: () => void
}

/**
 * WEB.md "A blind learner, with TalkBack, in Nepali": a question left out of a screen reader's paper, and one whose
 * picture has no caption for a screen reader to read (which the author may describe, or mark as needing sight).
 */
export function BlindLearnerMarks({ needsSight, noDescription }: { needsSight?: boolean; noDescription?: boolean }) {
  const { t } = useTranslation('bank')
  if (!needsSight && !noDescription) return null
  return (
    <span className="bank-marks">
      {needsSight && <span className="badge badge--paper">{t('blind.needs_sight')}</span>}
      {noDescription && <span className="badge badge--medium">{t('blind.no_description')}</span>}
    </span>
  )
}

/** One bank question in the list: its text, facets, where it is used and how often it is answered right. */
export function BankTableRow({ row, selected, onSelect, onEdit, onDelete }: BankTableRowProps) {
  const { t } = useTranslation('bank')
  const pick = useBilingual()
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const facility =
    row.facility === null
      ? t('list.no_responses')
      : t('list.facility_value', {
          percent: formatNumber(row.facility, language, { style: 'percent', maximumFractionDigits: 0 }),
          responses: n(row.responses),
        })
  return (
    <tr>
      <td>
        <input
          type="checkbox"
          checked={selected}
          onChange={(event) => onSelect(event.target.checked)}
          aria-label={t('list.select_named', { id: n(row.id) })}
        />
      </td>
      <td>
        <span className="muted">#{n(row.id)}</span> <RichPreview text={row.text} maxLength={BANK_PREVIEW_LENGTH} />
        {row.source && <span className="bank-source">{row.source}</span>}
        <BlindLearnerMarks needsSight={row.needs_sight} noDescription={row.no_description} />
        {row.update_available && <UpdateAvailable id={row.id} />}
      </td>
      <td lang={scriptLang(row.topic, language)}>{row.topic || '—'}</td>
      <td>{row.tags.length ? row.tags.join(', ') : '—'}</td>
      <td>{row.difficulty ? t(`difficulty.${row.difficulty}`) : t('difficulty.unrated')}</td>
      <td>{row.used_in.length === 0 ? t('list.unused') : row.used_in.map((use) => pick(use.title)).join(', ')}</td>
      <td className="admin-num">{facility}</td>
      <td>
        <span className="actions">
          <Button small onClick={onEdit} aria-label={t('list.edit_named', { id: n(row.id) })}>
            {t('list.edit')}
          </Button>
          <Button small variant="danger" onClick={onDelete} aria-label={t('list.delete_named', { id: n(row.id) })}>
            {t('list.delete')}
          </Button>
        </span>
      </td>
    </tr>
  )
}
