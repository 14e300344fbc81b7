import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { isAlreadyScanned, outcomeOf, ScanOutcomeText, type ScanOutcome } from './scan-outcome'
import { sendScan, useScansChanged } from './sittings.api'
import './sittings.i18n'

/** Photos sent at once from "Upload photos": enough to keep the connection busy, few enough not to crowd the server. */
export const UPLOAD_CONCURRENCY = 3

interface Upload {
  key: number
  file: File
  state: 'waiting' | 'sending' | 'done'
  outcome?: ScanOutcome
}

let uploadKey = 1

/** "Upload photos": many files at once, sent a few at a time, each one's outcome listed (the newest first). */
export function Uploads({ sittingId }: { sittingId: number }) {
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
        outcome: outcomeOf(await sendScan(sittingId, upload.file, replace)),
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
