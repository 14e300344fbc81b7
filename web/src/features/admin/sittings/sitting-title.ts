import { useTranslation } from 'react-i18next'
import { useBilingual } from '../../../i18n/use-bilingual'
import { formatDateTime } from '../../../lib/format'
import type { Sitting } from './sittings.api'

/** A sitting's name: its title, or its date and time when it has none. */
export function useSittingName() {
  const { i18n } = useTranslation()
  const pick = useBilingual()
  return (sitting: Pick<Sitting, 'title' | 'held_at'>) =>
    pick(sitting.title) || formatDateTime(sitting.held_at, i18n.language)
}
