import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Loading } from '../../../components/ui/loading'
import { sittingQueries, type Scan } from './sittings.api'
import './sittings.i18n'

/** The kept photo of a sheet; tapping it shows it at full size, where the phone's pinch zoom works. */
export function ScanPhoto({ scan }: { scan: Scan }) {
  const { t } = useTranslation('sittings')
  const image = useQuery(sittingQueries.scanImage(scan.id))
  const [zoomed, setZoomed] = useState(false)
  if (image.isError) return <Alert kind="error">{t('review.photo_failed')}</Alert>
  if (!image.data) return <Loading label={t('review.photo_loading')} />
  return (
    <div className={zoomed ? 'review-photo review-photo--zoomed' : 'review-photo'}>
      <img src={image.data} alt={t('review.photo_alt', { roll: scan.roll_number ?? '?' })} />
      <Button small onClick={() => setZoomed(!zoomed)} aria-pressed={zoomed}>
        {zoomed ? t('review.fit') : t('review.zoom')}
      </Button>
    </div>
  )
}
