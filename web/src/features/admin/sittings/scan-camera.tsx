import { useEffect, useRef, useState, type CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { drawJpeg, fittedSize } from '../../../lib/photo'
import { isAlreadyScanned, outcomeOf, ScanOutcomeText, type ScanOutcome } from './scan-outcome'
import { PHOTO_LONG_SIDE, sendScan, useScansChanged } from './sittings.api'
import './sittings.i18n'

type CameraState = 'starting' | 'on' | 'refused' | 'absent' | 'failed'

/**
 * Asks for the rear camera at a photo's resolution (the reader wants the bubbles sharp) and as the sensor sees it:
 * a width and height asked together make the browser crop the frame to their shape (a portrait sensor lost 7 % of
 * its height, and the bottom corner squares with it: issue 59). Where `resizeMode: 'none'` is known, only the
 * camera's own modes are offered and the largest is taken; elsewhere only a width is asked, so no shape is forced.
 */
export function cameraConstraints(): MediaStreamConstraints {
  const supported = navigator.mediaDevices.getSupportedConstraints?.() as Record<string, boolean | undefined>
  const video = supported?.resizeMode
    ? { facingMode: 'environment', width: { ideal: 4096 }, height: { ideal: 4096 }, resizeMode: 'none' }
    : { facingMode: 'environment', width: { ideal: 4032 } }
  return { audio: false, video: video as MediaTrackConstraints }
}

const ratioOf = (shape: string) => {
  const [width, height] = shape.split(' / ').map(Number)
  return String(width! / height!)
}

/** The frame's shape as the track really gives it ("width / height"), for the viewfinder and its guide. */
function frameShape(stream: MediaStream): string | null {
  const { width, height } = stream.getVideoTracks?.()[0]?.getSettings?.() ?? {}
  return width && height ? `${width} / ${height}` : null
}

const hasCamera = () => typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia)

function cameraStateOf(error: unknown): CameraState {
  const name = error instanceof DOMException || error instanceof Error ? error.name : ''
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'refused'
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'absent'
  return 'failed'
}

/**
 * The video's current frame as a JPEG, drawn straight at the size sent (a 12 MP frame encoded whole, decoded and
 * encoded again cost the phone half a second): sendScan then finds it small enough and sends it as it is.
 */
function grabFrame(video: HTMLVideoElement): Promise<Blob | null> {
  const { videoWidth, videoHeight } = video
  if (videoWidth === 0 || videoHeight === 0) return Promise.resolve(null)
  return drawJpeg(video, fittedSize(videoWidth, videoHeight, PHOTO_LONG_SIDE))
}

/** The rear camera over a sheet: the shutter (or a volume key) sends the frame, and the sheet's outcome shows. */
export function Camera({ sittingId }: { sittingId: number }) {
  const { t } = useTranslation('sittings')
  const video = useRef<HTMLVideoElement>(null)
  const [lastPhoto, setLastPhoto] = useState<Blob | null>(null)
  const [state, setState] = useState<CameraState>(() => (hasCamera() ? 'starting' : 'absent'))
  const [sending, setSending] = useState(false)
  const [outcome, setOutcome] = useState<ScanOutcome | null>(null)
  const [shape, setShape] = useState<string | null>(null)
  const scansChanged = useScansChanged(sittingId)

  useEffect(() => {
    if (!hasCamera()) return
    let stream: MediaStream | null = null
    let stopped = false
    navigator.mediaDevices.getUserMedia(cameraConstraints()).then(
      (opened) => {
        stream = opened
        if (stopped) return opened.getTracks().forEach((track) => track.stop())
        setShape(frameShape(opened))
        if (video.current) {
          video.current.srcObject = opened
          // The frame drawn is the video's own size: once known it settles the shape (older browsers' play() is void).
          video.current.onloadedmetadata = (event) => {
            const { videoWidth, videoHeight } = event.currentTarget as HTMLVideoElement
            if (videoWidth && videoHeight) setShape(`${videoWidth} / ${videoHeight}`)
          }
          void Promise.resolve(video.current.play()).catch(() => undefined)
        }
        setState('on')
      },
      (error: unknown) => !stopped && setState(cameraStateOf(error)),
    )
    return () => {
      stopped = true
      stream?.getTracks().forEach((track) => track.stop())
    }
  }, [])

  const send = async (photo: Blob, replace: boolean) => {
    setSending(true)
    try {
      setOutcome(outcomeOf(await sendScan(sittingId, photo, replace)))
    } catch (error) {
      setOutcome({ kind: 'refused', error })
    } finally {
      setSending(false)
      void scansChanged()
    }
  }

  const shoot = async () => {
    if (!video.current || sending) return
    const photo = await grabFrame(video.current)
    if (!photo) return
    setLastPhoto(photo)
    await send(photo, false)
  }

  // Where the browser passes the volume keys on (some Android browsers do), either one is a shutter.
  useEffect(() => {
    if (state !== 'on') return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'AudioVolumeUp' || event.key === 'AudioVolumeDown') {
        event.preventDefault()
        void shoot()
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  })

  return (
    <section className="card scan-camera" aria-labelledby="scan-camera">
      <h2 id="scan-camera">{t('scan.camera')}</h2>
      {state === 'refused' || state === 'absent' || state === 'failed' ? (
        <Alert kind="info">{t(`scan.camera_${state}`)}</Alert>
      ) : (
        <>
          <div
            className="scan-viewfinder"
            style={shape ? ({ '--frame-shape': shape, '--frame-ratio': ratioOf(shape) } as CSSProperties) : undefined}
          >
            <video ref={video} className="scan-viewfinder__video" playsInline muted aria-hidden="true" />
            <div className="scan-viewfinder__frame" aria-hidden="true">
              <span className="scan-viewfinder__corner scan-viewfinder__corner--tl" />
              <span className="scan-viewfinder__corner scan-viewfinder__corner--tr" />
              <span className="scan-viewfinder__corner scan-viewfinder__corner--bl" />
              <span className="scan-viewfinder__corner scan-viewfinder__corner--br" />
            </div>
          </div>
          <p className="field__hint">{t('scan.frame_hint')}</p>
          <div className="scan-shutter-row">
            <button
              type="button"
              className="scan-shutter"
              onClick={() => void shoot()}
              disabled={state !== 'on' || sending}
              aria-label={sending ? t('scan.reading') : t('scan.shutter')}
            >
              <span aria-hidden="true" className="scan-shutter__dot" />
            </button>
          </div>
        </>
      )}
      <div className="scan-result" role="status" aria-live="polite">
        {sending ? <p>{t('scan.reading')}</p> : outcome && <ScanOutcomeText outcome={outcome} />}
      </div>
      {!sending && isAlreadyScanned(outcome) && lastPhoto && (
        <div className="actions">
          <Button variant="danger" onClick={() => void send(lastPhoto, true)}>
            {t('scan.replace')}
          </Button>
        </div>
      )}
    </section>
  )
}
