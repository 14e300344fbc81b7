import type { ScanFlag } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber, formatScore } from '../../../lib/format'
import type { Scan } from './sittings.api'
import './sittings.i18n'

/** What became of one photo sent: the scan the server made of it, or its refusal. */
export type ScanOutcome = { kind: 'scan'; scan: Scan } | { kind: 'refused'; error: unknown }

/** The refusal a "Replace" answers: the sheet is recorded already, and sending it again with replace=true re-reads it. */
export const isAlreadyScanned = (outcome: ScanOutcome | null) =>
  outcome?.kind === 'refused' && outcome.error instanceof ApiError && outcome.error.code === 'sheet_already_scanned'

/** A flag in words: which question and what a person must decide about it. */
export function useFlagText() {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  return (flag: ScanFlag) =>
    t(`flags.${flag.kind}`, {
      question: flag.question === null ? '' : formatNumber(flag.question, language),
      marks: flag.marks.join(', '),
    })
}

/** One photo's outcome in words (the learner and score; what needs review; or why the sheet was not read). */
export function ScanOutcomeText({ outcome }: { outcome: ScanOutcome }) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const flagText = useFlagText()
  const n = (value: number) => formatNumber(value, language)
  if (outcome.kind === 'scan') {
    const { scan } = outcome
    const who = scan.learner ? scan.learner.full_name || scan.learner.username : t('outcome.unknown_learner')
    const roll = scan.roll_number === null ? t('outcome.no_roll') : n(scan.roll_number)
    if (scan.status === 'recorded')
      return (
        <div className="scan-outcome scan-outcome--recorded">
          <p className="scan-outcome__head">{t('outcome.recorded')}</p>
          <p className="scan-outcome__who">{who}</p>
          <p>
            {t('outcome.roll_set', { roll, set: scan.set ?? '?' })} ·{' '}
            {t('outcome.score', { score: formatScore(scan.score ?? 0, language) })}
          </p>
        </div>
      )
    return (
      <div className="scan-outcome scan-outcome--review">
        <p className="scan-outcome__head">{t('outcome.needs_review')}</p>
        <p className="scan-outcome__who">
          {who} · {t('outcome.roll_set', { roll, set: scan.set ?? '?' })}
        </p>
        <ul>
          {scan.flags.map((flag, index) => (
            <li key={index}>{flagText(flag)}</li>
          ))}
        </ul>
      </div>
    )
  }
  const { error } = outcome
  const code = error instanceof ApiError ? error.code : null
  const text =
    code === 'sheet_unreadable'
      ? t('outcome.unreadable', { reason: (error as ApiError).detail })
      : code === 'sheet_already_scanned'
        ? t('outcome.already_scanned')
        : code === 'wrong_sitting'
          ? t('outcome.wrong_sitting')
          : error instanceof ApiError && error.isNetworkError
            ? t('outcome.network')
            : error instanceof ApiError && error.status < 500
              ? error.detail
              : t('outcome.failed')
  return (
    <div className="scan-outcome scan-outcome--refused">
      <p className="scan-outcome__head">{t('outcome.not_read')}</p>
      <p>{text}</p>
    </div>
  )
}
