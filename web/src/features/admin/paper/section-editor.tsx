import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber, formatScore } from '../../../lib/format'
import { RichPreview } from '../../../components/ui/rich-text'
import type { BankFacets } from '../bank/bank.api'
import { BankPicker } from './bank-picker'
import { DrawEditor } from './draw-editor'
import { emptyDraw, newKey, sectionTotals, type ItemDraft, type SectionDraft } from './paper-draft'
import { PaperInput, type PathErrors } from './paper-field'
import '../bank/bank.i18n'

const ITEM_PREVIEW_LENGTH = 80

interface SectionEditorProps {
  section: SectionDraft
  index: number
  count: number
  errors: PathErrors
  facets: BankFacets | undefined
  inPaper: Set<number>
  /** Whether the paper is frozen: its draws list what they drew. */
  frozen: boolean
  onChange: (section: SectionDraft) => void
  onMove: (by: -1 | 1) => void
  onRemove: () => void
}

/** One section: titles, marks, time, and its fixed questions and draws in order. */
export function SectionEditor({
  section,
  index,
  count,
  errors,
  facets,
  inPaper,
  frozen,
  onChange,
  onMove,
  onRemove,
}: SectionEditorProps) {
  const { t } = useTranslation('bank')
  const pick = useBilingual()
  const language = useLanguage()
  const headingId = useId()
  const [picking, setPicking] = useState(false)
  const path = `sections.${index}`
  const n = index + 1
  const name = section.title.en.trim() ? pick(section.title) : t('paper.section_n', { n })
  const totals = sectionTotals(section)
  const set = (patch: Partial<SectionDraft>) => onChange({ ...section, ...patch })
  const setItem = (at: number, item: ItemDraft) =>
    set({ items: section.items.map((other, position) => (position === at ? item : other)) })
  const removeItem = (at: number) => set({ items: section.items.filter((_, position) => position !== at) })
  const moveItem = (at: number, by: -1 | 1) => {
    const items = [...section.items]
    const [item] = items.splice(at, 1)
    items.splice(at + by, 0, item!)
    set({ items })
  }
  const listError = errors(`${path}.items`)
  // "Draw 2", "question 3": each kind numbered on its own, in the section's order.
  const ordinals = section.items.map(
    (item, at) => section.items.slice(0, at + 1).filter((other) => other.kind === item.kind).length,
  )

  return (
    <section className="card admin-section paper-section" aria-labelledby={headingId}>
      <div className="paper-section__head">
        <h2 id={headingId}>{t('paper.section_heading', { n, name })}</h2>
        <span className="actions">
          <Button
            small
            disabled={index === 0}
            onClick={() => onMove(-1)}
            aria-label={t('paper.move_up_named', { name })}
          >
            {t('paper.move_up')}
          </Button>
          <Button
            small
            disabled={index === count - 1}
            onClick={() => onMove(1)}
            aria-label={t('paper.move_down_named', { name })}
          >
            {t('paper.move_down')}
          </Button>
          <Button
            small
            variant="danger"
            disabled={count === 1}
            onClick={onRemove}
            aria-label={t('paper.remove_section_named', { name })}
          >
            {t('paper.remove_section')}
          </Button>
        </span>
      </div>
      {errors(path) && <p className="field__error">{errors(path)}</p>}
      <div className="admin-grid">
        <PaperInput
          label={t('paper.title_en')}
          value={section.title.en}
          onChange={(en) => set({ title: { ...section.title, en } })}
          error={errors(`${path}.title.en`) ?? errors(`${path}.title`)}
          lang="en"
        />
        <PaperInput
          label={t('paper.title_ne')}
          value={section.title.ne}
          onChange={(ne) => set({ title: { ...section.title, ne } })}
          error={errors(`${path}.title.ne`)}
          lang="ne"
        />
      </div>
      <div className="paper-marks">
        <PaperInput
          label={t('paper.marks_correct')}
          value={section.marks_correct}
          onChange={(marks_correct) => set({ marks_correct })}
          error={errors(`${path}.marks_correct`)}
          numeric
          className="paper-number"
        />
        <PaperInput
          label={t('paper.marks_wrong')}
          hint={t('paper.marks_wrong_hint')}
          value={section.marks_wrong}
          onChange={(marks_wrong) => set({ marks_wrong })}
          error={errors(`${path}.marks_wrong`)}
          numeric
          className="paper-number"
        />
        <PaperInput
          label={t('paper.time_limit')}
          hint={t('paper.time_limit_hint')}
          value={section.time_limit}
          onChange={(time_limit) => set({ time_limit })}
          error={errors(`${path}.time_limit_minutes`)}
          numeric
          className="paper-number"
        />
      </div>

      {listError && <p className="field__error">{listError}</p>}
      {section.items.length === 0 ? (
        <p className="muted">{t('paper.no_items')}</p>
      ) : (
        <ol className="paper-items">
          {section.items.map((item, at) => {
            const itemPath = `${path}.items.${at}`
            const move = (
              <>
                <Button
                  small
                  disabled={at === 0}
                  onClick={() => moveItem(at, -1)}
                  aria-label={t('paper.item_up', { n: at + 1 })}
                >
                  ↑
                </Button>
                <Button
                  small
                  disabled={at === section.items.length - 1}
                  onClick={() => moveItem(at, 1)}
                  aria-label={t('paper.item_down', { n: at + 1 })}
                >
                  ↓
                </Button>
              </>
            )
            if (item.kind === 'draw') {
              const drawName = t('paper.draw_n', { n: ordinals[at] })
              return (
                <li key={item.key}>
                  <DrawEditor
                    draw={item}
                    path={itemPath}
                    name={drawName}
                    errors={errors}
                    facets={facets}
                    frozen={frozen}
                    onChange={(draw) => setItem(at, draw)}
                    onRemove={() => removeItem(at)}
                  />
                  <span className="actions paper-item__move">{move}</span>
                </li>
              )
            }
            const error = errors(itemPath) ?? errors(`${itemPath}.question_id`)
            const label = item.text ? (
              <RichPreview text={item.text} maxLength={ITEM_PREVIEW_LENGTH} />
            ) : (
              t('paper.question_id', { id: formatNumber(item.question_id, language) })
            )
            return (
              <li key={item.key} className="paper-item paper-fixed">
                <span className="paper-fixed__text">
                  <span className="muted">#{formatNumber(item.question_id, language)}</span> {label}
                  {error && <span className="field__error paper-fixed__error">{error}</span>}
                </span>
                <span className="actions">
                  {move}
                  <Button
                    small
                    variant="danger"
                    onClick={() => removeItem(at)}
                    aria-label={t('paper.remove_named', { name: t('paper.fixed_n', { n: ordinals[at] }) })}
                  >
                    {t('paper.remove')}
                  </Button>
                </span>
              </li>
            )
          })}
        </ol>
      )}
      <p className="actions">
        <Button onClick={() => setPicking(true)}>{t('paper.pick')}</Button>
        <Button onClick={() => set({ items: [...section.items, emptyDraw()] })}>{t('paper.add_draw')}</Button>
      </p>
      <p className="paper-section__totals">
        {t('paper.section_totals', {
          count: totals.questions,
          n: formatNumber(totals.questions, language),
          max: totals.maxHundredths === null ? '—' : formatScore(totals.maxHundredths / 100, language),
        })}
      </p>
      {picking && (
        <BankPicker
          sectionName={name}
          inPaper={inPaper}
          onClose={() => setPicking(false)}
          onPick={(rows) =>
            set({
              items: [
                ...section.items,
                ...rows.map((row) => ({ key: newKey(), kind: 'fixed' as const, question_id: row.id, text: row.text })),
              ],
            })
          }
        />
      )}
    </section>
  )
}
