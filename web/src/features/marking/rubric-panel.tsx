import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { useBilingualLang, useLanguage } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import type { MarkingRubric } from './marking.api'
import { signedPoints } from './marking-score'
import './marking.i18n'

export type SaveProblem = 'claimed_by_other' | 'rubric_changed' | 'failed'

/**
 * The rubric beside the answer: its items to apply or remove (1–9 by key), the running total, the adjustment, the
 * comment, what went wrong with the last save, and "Save and next" (Enter); then the keys, folded.
 */
export function RubricPanel({
  rubric,
  applied,
  onToggle,
  total,
  adjustment,
  setAdjustment,
  comment,
  setComment,
  problem,
  onSkipToNext,
  saving,
  onSave,
  saveLabel,
}: {
  rubric: MarkingRubric
  applied: ReadonlySet<number>
  onToggle: (itemId: number) => void
  total: number
  adjustment: number
  setAdjustment: (adjustment: number) => void
  comment: string
  setComment: (comment: string) => void
  problem: SaveProblem | null
  onSkipToNext: () => void
  saving: boolean
  onSave: () => void
  saveLabel?: string
}) {
  const { t } = useTranslation('marking')
  const language = useLanguage()
  const pick = useBilingualLang()
  const n = (value: number) => formatNumber(value, language, { maximumFractionDigits: 2 })
  const itemNumber = useMemo(() => new Map(rubric.items.map((item, index) => [item.id, index + 1])), [rubric.items])

  return (
    <aside className="marking-rubric card" aria-labelledby="marking-rubric-heading">
      <h2 id="marking-rubric-heading">{t('rubric.heading')}</h2>
      <p className="marking-total" aria-live="polite" aria-atomic="true">
        {t('rubric.total', { score: n(total), marks: n(rubric.marks) })}
      </p>
      <ol className="marking-items">
        {rubric.items.map((item) => {
          const on = applied.has(item.id)
          const title = pick(item.title)
          const number = itemNumber.get(item.id) ?? 0
          return (
            <li key={item.id}>
              <button
                type="button"
                className={`marking-item${on ? ' marking-item--on' : ''}${item.points < 0 ? ' marking-item--minus' : ''}`}
                aria-pressed={on}
                data-enter-saves="true"
                onClick={() => onToggle(item.id)}
              >
                {/* The key as printed on the keyboard: Latin digits in Nepali too. */}
                {number <= 9 && <kbd aria-hidden="true">{number}</kbd>}
                <span className="marking-item__points">{signedPoints(item.points, n)}</span>
                <span className="marking-item__title" lang={title.lang}>
                  {title.text}
                </span>
              </button>
              {item.explanation && <p className="marking-item__explanation">{pick(item.explanation).text}</p>}
            </li>
          )
        })}
      </ol>
      <div className="field marking-adjustment">
        <label htmlFor="marking-adjustment">{t('rubric.adjustment')}</label>
        <input
          id="marking-adjustment"
          type="number"
          step="0.5"
          inputMode="decimal"
          value={adjustment}
          onChange={(event) => {
            const value = Number(event.target.value)
            setAdjustment(Number.isFinite(value) ? Math.round(value * 100) / 100 : 0)
          }}
        />
      </div>
      <div className="field">
        <label htmlFor="marking-comment">{t('rubric.comment')}</label>
        <textarea
          id="marking-comment"
          rows={3}
          maxLength={5000}
          value={comment}
          aria-describedby="marking-comment-hint"
          onChange={(event) => setComment(event.target.value)}
        />
        <span id="marking-comment-hint" className="field__hint">
          {t('rubric.comment_hint')}
        </span>
      </div>
      {problem && (
        <Alert kind="error">
          {t(`problems.${problem}`)}{' '}
          {problem !== 'failed' && (
            <Button small onClick={onSkipToNext}>
              {t(problem === 'rubric_changed' ? 'problems.reload' : 'problems.next')}
            </Button>
          )}
        </Alert>
      )}
      <Button variant="primary" block disabled={saving} onClick={onSave}>
        {saving ? t('rubric.saving') : (saveLabel ?? t('rubric.save_next'))}
        <kbd aria-hidden="true">Enter</kbd>
      </Button>
      <details className="marking-keys">
        <summary>{t('keys.heading')}</summary>
        <ul>
          <li>{t('keys.items')}</li>
          <li>{t('keys.stamps')}</li>
          <li>{t('keys.tools')}</li>
          <li>{t('keys.cursor')}</li>
          <li>{t('keys.undo')}</li>
          <li>{t('keys.save')}</li>
        </ul>
      </details>
    </aside>
  )
}
