import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatMarks } from '../../lib/format'
import type { ReportRegrade } from './challenges.api'
import './results.i18n'

/** "Key changed: −0.20 → +1.00": a question whose marks in this attempt a key decision changed (WEB.md). */
export function KeyChanged({ regrade }: { regrade: ReportRegrade }) {
  const { t } = useTranslation('results')
  const language = useLanguage()
  return (
    <span className="badge badge--key-changed">
      {t('regrade.changed', {
        old: formatMarks(regrade.old_marks, language),
        new: formatMarks(regrade.new_marks, language),
      })}
    </span>
  )
}
