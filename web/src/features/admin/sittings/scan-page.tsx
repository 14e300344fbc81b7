import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { paths } from '../../../lib/paths'
import { Camera } from './scan-camera'
import { Uploads } from './scan-uploads'
import { SittingFrame } from './sitting-frame'
import { usePageCounts, type Sitting } from './sittings.api'
import './sittings.i18n'

/** /admin/sittings/{id}/scan: the phone's camera over a sheet, or many photos at once; each sheet's outcome shown. */
export function Component() {
  const { t } = useTranslation('sittings')
  return (
    <SittingFrame back="sitting" className="sittings-scan" heading={(name) => t('scan.title', { name })}>
      {(sitting) => <ScanScreen sitting={sitting} />}
    </SittingFrame>
  )
}

function ScanScreen({ sitting }: { sitting: Sitting }) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  const scanned = sitting.scans.recorded + sitting.scans.needs_review
  const pages = usePageCounts(sitting.id)
  const toReview = sitting.scans.needs_review + (pages?.needsReview ?? 0)
  return (
    <>
      <p className="scan-count" aria-live="polite">
        {t('scan.count', { scanned: n(scanned), roster: n(sitting.roster_count) })}
        {pages && <> {t('scan.pages_count', { count: pages.recorded, n: n(pages.recorded) })}</>}
        {toReview > 0 && (
          <>
            {' '}
            <Link to={paths.adminSittingReview(sitting.id)}>{t('scan.to_review', { n: n(toReview) })}</Link>
          </>
        )}
      </p>
      {sitting.status === 'closed' && <Alert kind="info">{t('scan.closed')}</Alert>}
      <Camera sittingId={sitting.id} />
      <Uploads sittingId={sitting.id} />
    </>
  )
}
