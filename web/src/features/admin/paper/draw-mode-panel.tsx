import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { paperDraft, toSectionsPayload, type QuizWithPaper, type SectionDraft } from './paper-draft'
import { useDrawMode, useFreeze, useRedraw } from './paper.api'
import '../bank/bank.i18n'

export type DrawOutcome = 'redrawn' | 'frozen' | 'redraw_refused' | 'draw_failed'

interface DrawModePanelProps {
  quiz: QuizWithPaper
  sections: SectionDraft[]
  /** The paper as the server drew it, to replace the draft. */
  onDrawn: (saved: QuizWithPaper) => void
  onOutcome: (outcome: DrawOutcome) => void
}

/** How the paper draws (per attempt or frozen), and freezing or drawing it again. */
export function DrawModePanel({ quiz, sections, onDrawn, onOutcome }: DrawModePanelProps) {
  const { t } = useTranslation('bank')
  const drawMode = useDrawMode(quiz.id)
  const redraw = useRedraw(quiz.id)
  const freeze = useFreeze(quiz.id)
  const frozen = quiz.draw_mode === 'frozen'
  const hasDraws = sections.some((section) => section.items.some((item) => item.kind === 'draw'))
  const drawn = (quiz.sections ?? []).some((section) =>
    section.items.some((item) => 'drawn' in item && item.drawn.length > 0),
  )
  // Freezing and drawing again work on the saved paper: with edits unsaved, the author saves first.
  const unsaved = JSON.stringify(toSectionsPayload(sections)) !== JSON.stringify(toSectionsPayload(paperDraft(quiz)))
  const drawNow = (action: typeof freeze, done: 'frozen' | 'redrawn') =>
    action.mutate(undefined, {
      onSuccess: (saved) => {
        onDrawn(saved)
        onOutcome(done)
      },
      onError: (error) =>
        onOutcome(error instanceof ApiError && error.status === 409 ? 'redraw_refused' : 'draw_failed'),
    })

  return (
    <fieldset className="card paper-mode">
      <legend>{t('paper.draw_mode')}</legend>
      {(['per_attempt', 'frozen'] as const).map((mode) => (
        <div className="checkbox" key={mode}>
          <input
            id={`draw-mode-${mode}`}
            type="radio"
            name="draw_mode"
            checked={(quiz.draw_mode ?? 'per_attempt') === mode}
            disabled={drawMode.isPending}
            onChange={() => drawMode.mutate(mode)}
          />
          <label htmlFor={`draw-mode-${mode}`}>{t(`paper.mode_${mode}`)}</label>
        </div>
      ))}
      {drawMode.isError && <Alert kind="error">{t('paper.mode_failed')}</Alert>}
      {hasDraws && (
        <div className="actions">
          <span className="muted">{frozen && drawn ? t('paper.frozen_hint') : t('paper.freeze_hint')}</span>
          {frozen && drawn ? (
            <Button disabled={redraw.isPending || unsaved} onClick={() => drawNow(redraw, 'redrawn')}>
              {t('paper.redraw')}
            </Button>
          ) : (
            <Button disabled={freeze.isPending || unsaved} onClick={() => drawNow(freeze, 'frozen')}>
              {t('paper.freeze')}
            </Button>
          )}
          {unsaved && <p className="muted">{t('paper.save_first')}</p>}
        </div>
      )}
    </fieldset>
  )
}
