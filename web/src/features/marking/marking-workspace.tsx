import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnnotationLabels, Rotation } from '../../components/annotations/annotated-page'
import {
  readAnnotationDoc,
  STAMP_CODES,
  type AnnotationMark,
  type StampCode,
} from '../../components/annotations/annotation-doc'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { useBilingualLang, useLanguage } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import type { EvaluationInput, MarkingAnswer } from './marking.api'
import { runningTotal, signedPoints, toggleItem } from './marking-score'
import { PageMarker, type Cursor, type Tool } from './page-marker'
import './marking.i18n'

export type SaveProblem = 'claimed_by_other' | 'rubric_changed' | 'failed'

const STAMP_KEYS: Record<string, StampCode> = { t: 'tick', x: 'cross', q: 'question', '?': 'question', g: 'good' }
/** Tools by key: the pen and the box then draw with the mouse, a finger or a stylus; Escape goes back to pointing. */
const TOOL_KEYS: Record<string, Tool> = { p: 'pen', b: 'box', n: 'note', escape: 'point' }
const ZOOMS = [1, 1.5, 2, 3] as const
/** Where marks land until the marker points elsewhere: the right margin, moving down after each mark. */
const START: Cursor = { x: 9000, y: 700 }
const CURSOR_DROP = 600

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['TEXTAREA', 'INPUT', 'SELECT'].includes(target.tagName))

/** Enter saves from anywhere but a text box and a control of its own (a link, a button not marked as a tool). */
const enterSaves = (target: EventTarget | null) =>
  !isTyping(target) &&
  !(
    target instanceof HTMLElement &&
    (target.tagName === 'A' || target.tagName === 'BUTTON') &&
    !target.dataset.enterSaves
  )

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
  const pick = useBilingualLang()
  const { rubric, pages } = answer
  const evaluation = answer.evaluation
  const [applied, setApplied] = useState<Set<number>>(() => new Set(evaluation?.items ?? []))
  const [adjustment, setAdjustment] = useState(evaluation?.adjustment ?? 0)
  const [comment, setComment] = useState(() => evaluation?.comment?.en || evaluation?.comment?.ne || '')
  const [marks, setMarks] = useState<Record<number, AnnotationMark[]>>(() =>
    Object.fromEntries(
      pages.map((page) => [
        page.id,
        readAnnotationDoc(evaluation?.annotations.find((entry) => entry.page_id === page.id)?.doc).marks,
      ]),
    ),
  )
  const [pageIndex, setPageIndex] = useState(0)
  const [zoom, setZoom] = useState<(typeof ZOOMS)[number]>(1)
  const [rotations, setRotations] = useState<Record<number, Rotation>>({})
  const [tool, setTool] = useState<Tool>('point')
  const [cursors, setCursors] = useState<Record<number, Cursor>>({})
  const [note, setNote] = useState('')
  const noteInput = useRef<HTMLInputElement>(null)

  const page = pages[pageIndex]
  const cursor = (page && cursors[page.id]) ?? START
  const n = (value: number) => formatNumber(value, language, { maximumFractionDigits: 2 })
  const total = runningTotal(rubric, applied, adjustment)
  const itemNumber = useMemo(() => new Map(rubric.items.map((item, index) => [item.id, index + 1])), [rubric.items])

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

  const addMark = (mark: AnnotationMark, advance = false) => {
    if (!page) return
    setMarks((all) => ({ ...all, [page.id]: [...(all[page.id] ?? []), mark] }))
    if (advance)
      setCursors((all) => ({ ...all, [page.id]: { x: cursor.x, y: Math.min(9600, cursor.y + CURSOR_DROP) } }))
  }
  const undo = () => {
    if (!page) return
    setMarks((all) => ({ ...all, [page.id]: (all[page.id] ?? []).slice(0, -1) }))
  }
  const toggle = (itemId: number) => {
    const next = toggleItem(rubric, applied, itemId)
    setApplied(next)
    // An applied item is also written where the cursor is (PLOM's "+2" in the margin); removed, it leaves the pages.
    setMarks((all) => {
      const kept = Object.fromEntries(
        Object.entries(all).map(([id, list]) => [
          id,
          list.filter((mark) => mark.k !== 'item' || next.has(mark.item_id)),
        ]),
      ) as Record<number, AnnotationMark[]>
      if (next.has(itemId) && page)
        kept[page.id] = [...(kept[page.id] ?? []), { k: 'item', item_id: itemId, ...cursor }]
      return kept
    })
    if (next.has(itemId) && page)
      setCursors((all) => ({ ...all, [page.id]: { x: cursor.x, y: Math.min(9600, cursor.y + CURSOR_DROP) } }))
  }
  const save = () => {
    const trimmed = comment.trim()
    onSave({
      items: [...applied],
      adjustment,
      // One comment box: the marker writes in either language and the learner reads it whichever they chose.
      comment: trimmed ? { en: trimmed, ne: trimmed } : null,
      annotations: pages.map((entry) => ({ page_id: entry.id, doc: { v: 1, marks: marks[entry.id] ?? [] } })),
      rubric_revision: rubric.revision,
    })
  }

  const pickTool = (next: Tool) => {
    setTool(next)
    if (next === 'note') setTimeout(() => noteInput.current?.focus(), 0)
  }
  // The window's key listener, added once, always sees this render's state.
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.altKey || event.metaKey) return
    if (event.key === 'Enter' && event.ctrlKey) {
      event.preventDefault()
      return save()
    }
    if (event.key === 'Enter' && enterSaves(event.target)) {
      event.preventDefault()
      return save()
    }
    if (isTyping(event.target) || event.ctrlKey) return
    if (/^[1-9]$/.test(event.key)) {
      const item = rubric.items[Number(event.key) - 1]
      if (item) {
        event.preventDefault()
        toggle(item.id)
      }
      return
    }
    const stamp = STAMP_KEYS[event.key.toLowerCase()]
    if (stamp) {
      event.preventDefault()
      addMark({ k: 'stamp', code: stamp, x: cursor.x, y: cursor.y }, true)
      return
    }
    if (event.key.toLowerCase() === 'z') {
      event.preventDefault()
      undo()
      return
    }
    const picked = TOOL_KEYS[event.key.toLowerCase()]
    if (picked) {
      event.preventDefault()
      pickTool(picked)
    }
  })
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event)
    window.addEventListener('keydown', listener)
    return () => window.removeEventListener('keydown', listener)
  }, [])

  const tools: { id: Tool; label: string; key?: string }[] = [
    { id: 'point', label: t('tools.point') },
    ...STAMP_CODES.map((code) => ({
      id: code,
      label: t(`stamps.${code}`),
      key: Object.keys(STAMP_KEYS)
        .find((key) => STAMP_KEYS[key] === code)
        ?.toUpperCase(),
    })),
    { id: 'pen', label: t('tools.pen'), key: 'P' },
    { id: 'box', label: t('tools.box'), key: 'B' },
    { id: 'note', label: t('tools.note'), key: 'N' },
  ]
  const rotate = () =>
    page && setRotations((all) => ({ ...all, [page.id]: (((all[page.id] ?? 0) + 90) % 360) as Rotation }))

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
            <section className="marking-pages" aria-labelledby="marking-pages-heading">
              <h2 id="marking-pages-heading" className="visually-hidden">
                {t('screen.pages')}
              </h2>
              <div className="marking-toolbar" role="toolbar" aria-label={t('tools.label')}>
                {tools.map((entry) => (
                  <button
                    key={entry.id}
                    type="button"
                    className={`marking-tool${tool === entry.id ? ' marking-tool--on' : ''}`}
                    aria-pressed={tool === entry.id}
                    data-enter-saves="true"
                    onClick={() => pickTool(entry.id)}
                  >
                    {entry.label}
                    {entry.key && <kbd aria-hidden="true">{entry.key}</kbd>}
                  </button>
                ))}
                <button type="button" className="marking-tool" data-enter-saves="true" onClick={undo}>
                  {t('tools.undo')}
                  <kbd aria-hidden="true">Z</kbd>
                </button>
              </div>
              <div className="marking-pagebar">
                <Button small disabled={pageIndex === 0} onClick={() => setPageIndex(pageIndex - 1)}>
                  {t('screen.previous_page')}
                </Button>
                <span aria-live="polite">
                  {t('screen.page_of', { number: n(pageIndex + 1), count: n(pages.length) })}
                </span>
                <Button small disabled={pageIndex >= pages.length - 1} onClick={() => setPageIndex(pageIndex + 1)}>
                  {t('screen.next_page')}
                </Button>
                <Button small onClick={rotate}>
                  {t('screen.rotate')}
                </Button>
                <label className="marking-zoom">
                  {t('screen.zoom')}{' '}
                  <select value={zoom} onChange={(event) => setZoom(Number(event.target.value) as typeof zoom)}>
                    {ZOOMS.map((value) => (
                      <option key={value} value={value}>
                        {n(value * 100)}%
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              {tool === 'note' && (
                <form
                  className="marking-note"
                  onSubmit={(event) => {
                    event.preventDefault()
                    if (note.trim() === '') return
                    addMark({ k: 'note', x: cursor.x, y: cursor.y, text: note.trim().slice(0, 500) }, true)
                    setNote('')
                  }}
                >
                  <label htmlFor="marking-note">{t('tools.note_label')}</label>
                  <input
                    id="marking-note"
                    ref={noteInput}
                    value={note}
                    maxLength={500}
                    onChange={(event) => setNote(event.target.value)}
                  />
                  <Button type="submit" small>
                    {t('tools.note_add')}
                  </Button>
                </form>
              )}
              <div className="marking-viewport">
                <div className="marking-zoomed" style={{ width: `${zoom * 100}%` }}>
                  <PageMarker
                    page={page}
                    marks={marks[page.id] ?? []}
                    labels={labels}
                    rotation={rotations[page.id] ?? 0}
                    tool={tool}
                    cursor={cursor}
                    label={t('screen.page_label', { number: n(pageIndex + 1) })}
                    onCursor={(next) => setCursors((all) => ({ ...all, [page.id]: next }))}
                    onAdd={(mark) => addMark(mark)}
                    sizes={`${zoom * 100}vw`}
                  />
                </div>
              </div>
            </section>
          )}
          {answer.text.trim() === '' && pages.length === 0 && <p className="card">{t('screen.blank')}</p>}
        </div>

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
                    onClick={() => toggle(item.id)}
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
          <Button variant="primary" block disabled={saving} onClick={save}>
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
      </div>
    </div>
  )
}
