import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import type { Roster, ScanList, Sitting, usePageCounts } from './sittings.api'
import './sittings.i18n'

/** Roll numbers of the roster with a scan (recorded or waiting for review): the rest are missing. */
export function missingLearners(roster: Roster, scans: ScanList) {
  const scanned = new Set(scans.results.map((scan) => scan.roll_number))
  return roster.roster.filter((entry) => !scanned.has(entry.roll_number))
}

/** The sitting's sheets and booklet pages scanned of the roster, and who is missing. */
export function ScanCounts({
  sitting,
  roster,
  scans,
  pages,
}: {
  sitting: Sitting
  roster?: Roster
  scans?: ScanList
  pages: ReturnType<typeof usePageCounts>
}) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const missing = roster && scans ? missingLearners(roster, scans) : null
  return (
    <section className="card" aria-labelledby="sitting-scans">
      <h2 id="sitting-scans">{t('counts.title')}</h2>
      <p>
        {t('counts.recorded', { recorded: n(sitting.scans.recorded), roster: n(sitting.roster_count) })}{' '}
        {sitting.scans.needs_review > 0 && t('counts.needs_review', { n: n(sitting.scans.needs_review) })}
      </p>
      {pages && (
        <p>
          {t('counts.pages', { count: pages.recorded, n: n(pages.recorded) })}{' '}
          {pages.needsReview > 0 && t('counts.pages_review', { count: pages.needsReview, n: n(pages.needsReview) })}
        </p>
      )}
      {missing && missing.length > 0 && (
        <details>
          <summary>{t('counts.missing', { count: missing.length, n: n(missing.length) })}</summary>
          <ul className="sittings-missing">
            {missing.map((entry) => (
              <li key={entry.roll_number}>
                {t('counts.missing_line', {
                  roll: n(entry.roll_number),
                  name: entry.user.full_name || entry.user.username,
                })}
              </li>
            ))}
          </ul>
        </details>
      )}
      {missing && missing.length === 0 && roster && roster.roster.length > 0 && <p>{t('counts.none_missing')}</p>}
    </section>
  )
}
