import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Loading } from '../../../components/ui/loading'
import { closeUp, cropAround, placeIn } from './photo-region'
import { sittingQueries, type PhotoSource, type Scan, type ScanBox } from './sittings.api'
import './sittings.i18n'

/** How tall a close-up may be: a roll grid stays beside its choices rather than filling the screen. */
const CLOSE_UP_MAX_REM = 16

/**
 * The kept photo of a sheet, each flagged region outlined; tapping "Zoom in" shows it at 2.5 times, scrolled to the
 * first flagged region, where the phone's pinch zoom works too.
 */
export function ScanPhoto({ scan }: { scan: Scan }) {
  const { t } = useTranslation('sittings')
  return (
    <MarkedPhoto
      source={{ kind: 'scan', id: scan.id }}
      boxes={scan.flags.flatMap((flag) => (flag.box ? [flag.box] : []))}
      alt={t('review.photo_alt', { roll: scan.roll_number ?? '?' })}
    />
  )
}

/** A kept photo (a sheet's or a booklet page's) with the given regions outlined, zoomable as ScanPhoto says. */
export function MarkedPhoto({ source, boxes, alt }: { source: PhotoSource; boxes: ScanBox[]; alt: string }) {
  const { t } = useTranslation('sittings')
  const image = useQuery(sittingQueries.photo(source))
  const [zoomed, setZoomed] = useState(false)
  const scroller = useRef<HTMLDivElement>(null)
  const first = boxes[0]

  useEffect(() => {
    const view = scroller.current
    if (!zoomed || !view || !first) return
    view.scrollLeft = (first.x + first.width / 2) * view.scrollWidth - view.clientWidth / 2
    view.scrollTop = (first.y + first.height / 2) * view.scrollHeight - view.clientHeight / 2
  }, [zoomed, first])

  if (image.isError) return <Alert kind="error">{t('review.photo_failed')}</Alert>
  if (!image.data) return <Loading label={t('review.photo_loading')} />
  const { url, size } = image.data
  return (
    <div className={zoomed ? 'review-photo review-photo--zoomed' : 'review-photo'}>
      <div className="review-photo__view" ref={scroller}>
        <div className="review-photo__frame">
          <img src={url} alt={alt} width={size?.width} height={size?.height} />
          {boxes.map((box, index) => (
            <span key={index} className="review-mark" aria-hidden="true" style={placeIn(box)} />
          ))}
        </div>
      </div>
      <Button small onClick={() => setZoomed(!zoomed)} aria-pressed={zoomed}>
        {zoomed ? t('review.fit') : t('review.zoom')}
      </Button>
    </div>
  )
}

/**
 * One flagged region of the photo, enlarged beside its choices (on a phone the row's bubbles are large enough to
 * judge without zooming the whole photo). Nothing for a scan read before regions were kept, or while the photo's
 * size is unknown.
 */
export function RegionCrop({ source, box, label }: { source: PhotoSource; box: ScanBox | undefined; label: string }) {
  const image = useQuery(sittingQueries.photo(source))
  if (!box || !image.data?.size) return null
  const crop = cropAround(box)
  const { frame, stage, photo } = closeUp(crop, image.data.size, CLOSE_UP_MAX_REM, box.turn)
  return (
    <div className="review-crop" style={frame}>
      <div className="review-crop__stage" style={stage}>
        <img src={image.data.url} alt={label} style={photo} />
        <span className="review-mark" aria-hidden="true" style={placeIn(box, crop)} />
      </div>
    </div>
  )
}
