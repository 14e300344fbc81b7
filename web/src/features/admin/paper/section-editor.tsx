import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { useBilingual, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber, formatScore } from '../../../lib/format'
import type { BankFacets } from '../bank/bank.api'
import { BankPicker } from './bank-picker'
import { emptyDraw, newKey, sectionTotals, type SectionDraft } from './paper-draft'
import { PaperInput, type PathErrors } from './paper-field'
import { SectionItems } from './section-items'
import { SectionMarking } from './section-marking'
import { PassagePicker } from './passage-picker'
import '../bank/bank.i18n'

interface SectionEditorProps {
  section: SectionDraft
  index: number
  count: number
  errors: PathErrors
  facets: BankFacets | undefined
  inPaper: Set<number>
  /** The passages the paper holds already. */
  passagesInPaper: Set<number>
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
  passagesInPaper,
  frozen,
  onChange,
  onMove,
  onRemove,
}: SectionEditorProps) {
  const { t } = useTranslation('bank')
  const pick = useBilingual()
  const headingId = useId()
  const [picking, setPicking] = useState(false)
  const [pickingPassage, setPickingPassage] = useState(false)
  const path = `sections.${index}`
  const n = index + 1
  const name = section.title.en.trim() ? pick(section.title) : t('paper.section_n', { n })
  const set = (patch: Partial<SectionDraft>) => onChange({ ...section, ...patch })
  const listError = errors(`${path}.items`)

  return (
    <section className="card admin-section paper-section" aria-labelledby={headingId}>
      <div className="paper-section__head">
        <h2 id={headingId}>{t('paper.section_heading', { n, name })}</h2>
        <SectionMoves name={name} index={index} count={count} onMove={onMove} onRemove={onRemove} />
      </div>
      {errors(path) && <p className="field__error">{errors(path)}</p>}
      <SectionFields section={section} path={path} errors={errors} set={set} />
      <SectionMarking section={section} path={path} errors={errors} set={set} />

      {listError && <p className="field__error">{listError}</p>}
      <SectionItems
        items={section.items}
        path={path}
        errors={errors}
        facets={facets}
        frozen={frozen}
        onChange={(items) => set({ items })}
      />
      <p className="actions">
        <Button onClick={() => setPicking(true)}>{t('paper.pick')}</Button>
        <Button onClick={() => setPickingPassage(true)}>{t('paper.add_passage')}</Button>
        <Button onClick={() => set({ items: [...section.items, emptyDraw()] })}>{t('paper.add_draw')}</Button>
      </p>
      <SectionTotalsLine section={section} />
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
      {pickingPassage && (
        <PassagePicker
          sectionName={name}
          inPaper={passagesInPaper}
          onClose={() => setPickingPassage(false)}
          onPick={(passage) =>
            set({
              items: [
                ...section.items,
                {
                  key: newKey(),
                  kind: 'passage',
                  passage_id: passage.id,
                  question_ids: passage.question_ids,
                  text: passage.text,
                },
              ],
            })
          }
        />
      )}
    </section>
  )
}

interface SectionMovesProps {
  name: string
  index: number
  count: number
  onMove: (by: -1 | 1) => void
  onRemove: () => void
}

function SectionMoves({ name, index, count, onMove, onRemove }: SectionMovesProps) {
  const { t } = useTranslation('bank')
  return (
    <span className="actions">
      <Button small disabled={index === 0} onClick={() => onMove(-1)} aria-label={t('paper.move_up_named', { name })}>
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
  )
}

interface SectionFieldsProps {
  section: SectionDraft
  path: string
  errors: PathErrors
  set: (patch: Partial<SectionDraft>) => void
}

/** The section's titles in both languages, its marks per answer and its own time limit. */
function SectionFields({ section, path, errors, set }: SectionFieldsProps) {
  const { t } = useTranslation('bank')
  return (
    <>
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
    </>
  )
}

function SectionTotalsLine({ section }: { section: SectionDraft }) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const totals = sectionTotals(section)
  return (
    <p className="paper-section__totals">
      {t('paper.section_totals', {
        count: totals.questions,
        n: formatNumber(totals.questions, language),
        max: totals.maxHundredths === null ? '—' : formatScore(totals.maxHundredths / 100, language),
      })}
    </p>
  )
}
