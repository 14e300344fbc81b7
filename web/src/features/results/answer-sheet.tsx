import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { Alert } from '../../components/ui/alert'
import { Button, buttonClass } from '../../components/ui/button'
import { Dialog } from '../../components/ui/dialog'
import { Loading } from '../../components/ui/loading'
import './results.i18n'

/**
 * "My answer sheet" on a paper attempt's report: the photo the institute took of the learner's sheet. It is read
 * with the learner's token (an <img> sends none), so it is fetched as a blob and shown from an object URL.
 */
export function AnswerSheet({ attemptId }: { attemptId: number }) {
  const { t } = useTranslation('results')
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" className={buttonClass({ variant: 'plain' })} onClick={() => setOpen(true)}>
        {t('sheet.open')}
      </button>
      <Dialog open={open} title={t('sheet.title')} onClose={() => setOpen(false)} className="answer-sheet">
        {open && <SheetPhoto attemptId={attemptId} />}
      </Dialog>
    </>
  )
}

function SheetPhoto({ attemptId }: { attemptId: number }) {
  const { t } = useTranslation('results')
  const photo = useQuery({
    queryKey: ['results', attemptId, 'sheet'],
    queryFn: () => api.blob(`/results/${attemptId}/sheet`),
    staleTime: Infinity,
  })
  const url = useObjectUrl(photo.data)
  // Fitted to a phone, a bubble is a few pixels across: the learner zooms in to see which ones they filled.
  const [zoomed, setZoomed] = useState(false)
  if (photo.isError) return <Alert kind="error">{t('sheet.failed')}</Alert>
  if (!url) return <Loading label={t('sheet.loading')} />
  const image = <img className="answer-sheet__photo" src={url} alt={t('sheet.alt')} />
  return (
    <>
      {zoomed ? (
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling block must take focus to scroll by keyboard (axe scrollable-region-focusable)
        <div className="answer-sheet__zoomed" tabIndex={0} role="group" aria-label={t('sheet.zoomed')}>
          {image}
        </div>
      ) : (
        image
      )}
      <Button className="answer-sheet__zoom" onClick={() => setZoomed(!zoomed)}>
        {zoomed ? t('sheet.fit') : t('sheet.zoom')}
      </Button>
    </>
  )
}

function useObjectUrl(blob: Blob | undefined) {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob])
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url])
  return url
}
