import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import type { Roster, Sitting } from './sittings.api'
import './sittings.i18n'

// What the review's two cards (a flagged sheet, a flagged booklet page) share.

/** A card of the review: the item that needs a person, and what to call once it is settled. */
export interface ReviewCardProps<Item> {
  sitting: Sitting
  roster?: Roster
  onSettled: (item: Item) => void
}

/** The roster's learners by roll number, for a roll the reader could not read. */
export function LearnerSelect({
  id,
  value,
  roster,
  onChange,
}: {
  id: string
  value: string
  roster: Roster | undefined
  onChange: (roll: string) => void
}) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">{t('review.choose_learner')}</option>
      {roster?.roster.map((entry) => (
        <option key={entry.roll_number} value={entry.roll_number}>
          {t('counts.missing_line', {
            roll: formatNumber(entry.roll_number, language),
            name: entry.user.full_name || entry.user.username,
          })}
        </option>
      ))}
    </select>
  )
}

/** A refused settle says the server's reason (the item changed meanwhile, say); anything else, that it failed. */
export function SettleFailure({ error }: { error: Error | null }) {
  const { t } = useTranslation('sittings')
  if (!error) return null
  return (
    <Alert kind="error">
      {error instanceof ApiError && error.status < 500
        ? (Object.values(error.errors ?? {}).flat()[0] ?? error.detail)
        : t('review.settle_failed')}
    </Alert>
  )
}
