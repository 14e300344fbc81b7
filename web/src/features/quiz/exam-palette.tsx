import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../components/ui/button'
import { Dialog } from '../../components/ui/dialog'
import { PHONE_QUERY, useMediaQuery } from '../../lib/use-media-query'
import { PaletteLegend } from './palette-legend'
import type { PaletteState } from './palette-state'
import './quiz.i18n'

/**
 * The question palette and its legend. On a wider screen they stand above the question; on a phone they fold into
 * a sheet opened from one button that shows the counts, so that the question and its options start in the first
 * screen (issue 46). Picking a question in the sheet closes it.
 */
export function ExamPalette({
  counts,
  navigator,
}: {
  counts: Record<PaletteState, number>
  /** The navigator, told when a question was picked. */
  navigator: (picked: () => void) => ReactNode
}) {
  const { t } = useTranslation('quiz')
  const phone = useMediaQuery(PHONE_QUERY)
  const [open, setOpen] = useState(false)
  const legend = (
    <details className="quiz__legend">
      <summary>{t('legend.title')}</summary>
      <PaletteLegend counts={counts} className="legend--compact" />
    </details>
  )
  const summary = t('palette.open', {
    answered: counts.answered + counts.answered_marked,
    marked: counts.marked + counts.answered_marked,
    not_answered: counts.not_answered,
  })
  // The counts are spoken politely when they change (an answer given, a mark set), not when the screen opens.
  const announced = (
    <p className="visually-hidden" aria-live="polite">
      {summary}
    </p>
  )
  if (!phone) {
    return (
      <>
        {navigator(() => undefined)}
        {legend}
        {announced}
      </>
    )
  }
  return (
    <>
      <Button className="quiz__palette-button" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {summary}
      </Button>
      <Dialog open={open} title={t('palette.title')} onClose={() => setOpen(false)} className="dialog--sheet">
        {navigator(() => setOpen(false))}
        <PaletteLegend counts={counts} className="legend--compact" />
      </Dialog>
      {announced}
    </>
  )
}
