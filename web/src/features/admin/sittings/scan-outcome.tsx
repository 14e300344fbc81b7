import type { ScanFlag } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber, formatScore } from '../../../lib/format'
import type { BookletPage, PageFlag, PageOrSheet, Scan } from './sittings.api'
import './sittings.i18n'

/** What became of one photo sent: the answer sheet or booklet page the server made of it, or its refusal. */
export type ScanOutcome =
  { kind: 'scan'; scan: Scan } | { kind: 'page'; page: BookletPage } | { kind: 'refused'; error: unknown }

/** The outcome of what `pages/` answered: a booklet page, or an answer sheet sent to the same place. */
export const outcomeOf = (read: PageOrSheet): ScanOutcome =>
  read.kind === 'page' ? { kind: 'page', page: read } : { kind: 'scan', scan: read }

const ALREADY = new Set(['sheet_already_scanned', 'page_already_scanned'])

/** The reader's refusals (a 422's `refusal`), each in the screen's language: its cause, so its own sentence. */
const REFUSALS = {
  corners: 'outcome.refusal.corners',
  not_flat: 'outcome.refusal.not_flat',
  glare: 'outcome.refusal.glare',
  blurred: 'outcome.refusal.blurred',
  dark: 'outcome.refusal.dark',
  qr: 'outcome.refusal.qr',
  too_costly: 'outcome.refusal.too_costly',
} as const

/** Why the reader refused a photo: its sentence in the screen's language, or the server's own when it names none. */
function refusalKey(error: unknown) {
  const refusal = error instanceof ApiError ? error.extra.refusal : undefined
  return typeof refusal === 'string' && Object.hasOwn(REFUSALS, refusal)
    ? REFUSALS[refusal as keyof typeof REFUSALS]
    : null
}

/** The refusal a "Replace" answers: the sheet or page is recorded already; sent again with replace=true, re-read. */
export const isAlreadyScanned = (outcome: ScanOutcome | null) =>
  outcome?.kind === 'refused' && outcome.error instanceof ApiError && ALREADY.has(outcome.error.code)

/** A booklet page's flag in words: what a person must decide about it. */
export function usePageFlagText() {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  // Marks are question or roll numbers read, written in the screen's digits.
  const mark = (text: string) => (/^\d+$/.test(text) ? formatNumber(Number(text), language) : text)
  return (flag: PageFlag) => t(`page_flags.${flag.kind}`, { marks: flag.marks.map(mark).join(', ') })
}

/** "Roll 3 · page 2 · questions 4, 5" (what the page's code and bubbles say). */
export function usePageLine() {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  return (page: BookletPage) =>
    [
      t('outcome.roll', { roll: page.roll_number === null ? t('outcome.no_roll') : n(page.roll_number) }),
      page.page_number === null ? t('outcome.spare_page') : t('outcome.page', { page: n(page.page_number) }),
      ...(page.questions.length
        ? [t('outcome.questions', { count: page.questions.length, numbers: page.questions.map(n).join(', ') })]
        : []),
    ].join(' · ')
}

/** A photographed booklet page: whose, which page and question(s), or what a person must settle. */
function PageOutcomeText({ page }: { page: BookletPage }) {
  const { t } = useTranslation('sittings')
  const flagText = usePageFlagText()
  const line = usePageLine()
  const who = page.learner ? page.learner.full_name || page.learner.username : t('outcome.unknown_learner')
  const recorded = page.status === 'recorded'
  return (
    <div className={recorded ? 'scan-outcome scan-outcome--recorded' : 'scan-outcome scan-outcome--review'}>
      <p className="scan-outcome__head">{recorded ? t('outcome.page_recorded') : t('outcome.page_needs_review')}</p>
      <p className="scan-outcome__who">{who}</p>
      <p>{line(page)}</p>
      {page.flags.length > 0 && (
        <ul>
          {page.flags.map((flag, index) => (
            <li key={index}>{flagText(flag)}</li>
          ))}
        </ul>
      )}
    </div>
  )
}

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
  if (outcome.kind === 'page') return <PageOutcomeText page={outcome.page} />
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
  const refusal = refusalKey(error)
  const text =
    code === 'sheet_unreadable' || code === 'page_unreadable'
      ? t('outcome.unreadable', { reason: refusal ? t(refusal) : (error as ApiError).detail })
      : code === 'sheet_already_scanned'
        ? t('outcome.already_scanned')
        : code === 'page_already_scanned'
          ? t('outcome.page_already_scanned')
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
