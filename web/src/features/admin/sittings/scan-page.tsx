import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { paths } from '../../../lib/paths'
import { isAlreadyScanned, ScanOutcomeText, type ScanOutcome } from './scan-outcome'
import { SittingFrame } from './sitting-frame'
import { sendScan, useScansChanged, type Sitting } from './sittings.api'
import './sittings.i18n'

/** Photos sent at once from "Upload photos": enough to keep the connection busy, few enough not to crowd the server. */
export const UPLOAD_CONCURRENCY = 3

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
  return (
    <>
      <p className="scan-count" aria-live="polite">
        {t('scan.count', { scanned: n(scanned), roster: n(sitting.roster_count) })}
        {sitting.scans.needs_review > 0 && (
          <>
            {' '}
            <Link to={paths.adminSittingReview(sitting.id)}>
              {t('scan.to_review', { n: n(sitting.scans.needs_review) })}
            </Link>
          </>
        )}
      </p>
      {sitting.status === 'closed' && <Alert kind="info">{t('scan.closed')}</Alert>}
      <Camera sittingId={sitting.id} />
      <Uploads sittingId={sitting.id} />
    </>
  )
}

type CameraState = 'starting' | 'on' | 'refused' | 'absent' | 'failed'

/** Asks for the rear camera at a photo's resolution: the reader wants the bubbles sharp. */
const CAMERA: MediaStreamConstraints = {
  audio: false,
  video: { facingMode: 'environment', width: { ideal: 4032 }, height: { ideal: 3024 } },
}

const hasCamera = () => typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia)

function cameraStateOf(error: unknown): CameraState {
  const name = error instanceof DOMException || error instanceof Error ? error.name : ''
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'refused'
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'absent'
  return 'failed'
}

/** The video's current frame as a JPEG at the camera's full resolution (sendScan shrinks it when larger than needed). */
function grabFrame(video: HTMLVideoElement): Promise<Blob | null> {
  const canvas = document.createElement('canvas')
  canvas.width = video.videoWidth
  canvas.height = video.videoHeight
  const context = canvas.getContext('2d')
  if (!context || canvas.width === 0) return Promise.resolve(null)
  context.drawImage(video, 0, 0)
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92))
}

function Camera({ sittingId }: { sittingId: number }) {
  const { t } = useTranslation('sittings')
  const video = useRef<HTMLVideoElement>(null)
  const [lastPhoto, setLastPhoto] = useState<Blob | null>(null)
  const [state, setState] = useState<CameraState>(() => (hasCamera() ? 'starting' : 'absent'))
  const [sending, setSending] = useState(false)
  const [outcome, setOutcome] = useState<ScanOutcome | null>(null)
  const scansChanged = useScansChanged(sittingId)

  useEffect(() => {
    if (!hasCamera()) return
    let stream: MediaStream | null = null
    let stopped = false
    navigator.mediaDevices.getUserMedia(CAMERA).then(
      (opened) => {
        stream = opened
        if (stopped) return opened.getTracks().forEach((track) => track.stop())
        if (video.current) {
          video.current.srcObject = opened
          void video.current.play().catch(() => undefined)
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
      setOutcome({ kind: 'scan', scan: await sendScan(sittingId, photo, replace) })
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
          <div className="scan-viewfinder">
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

interface Upload {
  key: number
  file: File
  state: 'waiting' | 'sending' | 'done'
  outcome?: ScanOutcome
}

let uploadKey = 1

function Uploads({ sittingId }: { sittingId: number }) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const [uploads, setUploads] = useState<Upload[]>([])
  const scansChanged = useScansChanged(sittingId)
  const inputId = useId()
  const update = (key: number, patch: Partial<Upload>) =>
    setUploads((current) => current.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)))

  const sendOne = async (upload: Upload, replace = false) => {
    update(upload.key, { state: 'sending', outcome: undefined })
    try {
      update(upload.key, {
        state: 'done',
        outcome: { kind: 'scan', scan: await sendScan(sittingId, upload.file, replace) },
      })
    } catch (error) {
      update(upload.key, { state: 'done', outcome: { kind: 'refused', error } })
    }
  }

  const sendAll = async (files: File[]) => {
    const added = files.map((file): Upload => ({ key: uploadKey++, file, state: 'waiting' }))
    setUploads((current) => [
      ...added,
      ...current.filter((upload) => upload.state !== 'done'),
      ...current.filter((upload) => upload.state === 'done'),
    ])
    const queue = [...added]
    const worker = async () => {
      for (let upload = queue.shift(); upload; upload = queue.shift()) await sendOne(upload)
    }
    await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, queue.length) }, worker))
    void scansChanged()
  }

  const done = uploads.filter((upload) => upload.state === 'done').length
  return (
    <section className="card" aria-labelledby="scan-upload">
      <h2 id="scan-upload">{t('scan.upload')}</h2>
      <div className="field">
        <label htmlFor={inputId}>{t('scan.upload_label')}</label>
        <input
          id={inputId}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          multiple
          onChange={(event) => {
            const files = [...(event.target.files ?? [])]
            event.target.value = ''
            if (files.length) void sendAll(files)
          }}
        />
      </div>
      {uploads.length > 0 && (
        <p aria-live="polite">
          {t('scan.upload_progress', {
            done: formatNumber(done, language),
            total: formatNumber(uploads.length, language),
          })}
        </p>
      )}
      <ul className="scan-uploads" aria-live="polite">
        {uploads.map((upload) => (
          <li key={upload.key} className="scan-uploads__item">
            <p className="scan-uploads__name">{upload.file.name}</p>
            {upload.state === 'done' && upload.outcome ? (
              <>
                <ScanOutcomeText outcome={upload.outcome} />
                {isAlreadyScanned(upload.outcome) && (
                  <Button small variant="danger" onClick={() => void sendOne(upload, true).then(scansChanged)}>
                    {t('scan.replace')}
                  </Button>
                )}
              </>
            ) : (
              <p className="muted">{upload.state === 'sending' ? t('scan.reading') : t('scan.waiting')}</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
