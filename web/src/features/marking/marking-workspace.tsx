import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnnotationLabels } from '../../components/annotations/annotated-page'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import type { EvaluationInput, MarkingAnswer } from './marking.api'
import { MarkingPages } from './marking-pages'
import { signedPoints } from './marking-score'
import type { Tool } from './page-marker'
import { RubricPanel, type SaveProblem } from './rubric-panel'
import { useAnswerMarking } from './use-answer-marking'
import { useMarkingKeys } from './use-marking-keys'
import './marking.i18n'

export type { SaveProblem } from './rubric-panel'

/**
 * The marking screen's working part for one answer: pages (zoom, rotate, next page) or typed text on the left, the
 * rubric, total, comment and "Save and next" on the right. Keys: 1–9 items, T X Q G stamps, arrows move the cursor
 * on a focused page, Z undoes, Enter saves (WEB.md "Written answers").
 */
export function MarkingWorkspace({
  answer,
  saving,
  problem,
  onSave,
  onSkipToNext,
  saveLabel,
}: {
  answer: MarkingAnswer
  saving: boolean
  problem: SaveProblem | null
  onSave: (body: EvaluationInput) => void
  onSkipToNext: () => void
  /** The save button's words when saving opens no next answer (one answer opened by id). */
  saveLabel?: string
}) {
  const { t } = useTranslation('marking')
  const language = useLanguage()
  const { rubric, pages } = answer
  const marking = useAnswerMarking(answer)
  const { page, pageIndex, cursor } = marking
  const [tool, setTool] = useState<Tool>('point')
  const noteInput = useRef<HTMLInputElement>(null)
  const n = (value: number) => formatNumber(value, language, { maximumFractionDigits: 2 })

  const labels: AnnotationLabels = {
    page: t('screen.page_of', { number: n(pageIndex + 1), count: n(pages.length) }),
    stamps: {
      tick: t('stamps.tick'),
      cross: t('stamps.cross'),
      question: t('stamps.question'),
      good: t('stamps.good'),
    },
    item: (id) => {
      const item = rubric.items.find((candidate) => candidate.id === id)
      return item ? signedPoints(item.points, n) : undefined
    },
    note: t('tools.note'),
    box: t('tools.box'),
    ink: t('tools.pen'),
  }

  const save = () => onSave(marking.evaluationInput())
  const pickTool = (next: Tool) => {
    setTool(next)
    if (next === 'note') setTimeout(() => noteInput.current?.focus(), 0)
  }
  useMarkingKeys({
    itemIds: rubric.items.map((item) => item.id),
    save,
    toggle: marking.toggle,
    stamp: (code) => marking.addMark({ k: 'stamp', code, x: cursor.x, y: cursor.y }, true),
    undo: marking.undo,
    pickTool,
  })

  return (
    <div className="marking-workspace">
      <header className="marking-header">
        <h1>
          {/* The code outside the translation: Nepali's digit post-processing would rewrite an identifier. */}
          {t('screen.answer')} {answer.anonymous_code}
        </h1>
        {answer.word_count > 0 && <p className="muted">{t('screen.words', { number: n(answer.word_count) })}</p>}
      </header>

      <div className="marking-body">
        <div className="marking-answer">
          {answer.text.trim() !== '' && (
            <section className="marking-text card" aria-labelledby="marking-text-heading">
              <h2 id="marking-text-heading">{t('screen.typed_text')}</h2>
              <div className="marking-text__body">{answer.text}</div>
            </section>
          )}
          {page && (
            <MarkingPages
              page={page}
              pageIndex={pageIndex}
              pageCount={pages.length}
              onPage={marking.setPageIndex}
              marks={marking.marks[page.id] ?? []}
              labels={labels}
              tool={tool}
              onPickTool={pickTool}
              noteInput={noteInput}
              cursor={cursor}
              onCursor={marking.setCursor}
              onAdd={marking.addMark}
              onUndo={marking.undo}
            />
          )}
          {answer.text.trim() === '' && pages.length === 0 && <p className="card">{t('screen.blank')}</p>}
        </div>

        <RubricPanel
          rubric={rubric}
          applied={marking.applied}
          onToggle={marking.toggle}
          total={marking.total}
          adjustment={marking.adjustment}
          setAdjustment={marking.setAdjustment}
          comment={marking.comment}
          setComment={marking.setComment}
          problem={problem}
          onSkipToNext={onSkipToNext}
          saving={saving}
          onSave={save}
          saveLabel={saveLabel}
        />
      </div>
    </div>
  )
}
