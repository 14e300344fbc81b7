import { useState, type RefObject } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnnotationLabels, Rotation } from '../../components/annotations/annotated-page'
import { STAMP_CODES, type AnnotationMark } from '../../components/annotations/annotation-doc'
import { Button } from '../../components/ui/button'
import { useLanguage } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import type { MarkingAnswer } from './marking.api'
import { PageMarker, type Cursor, type Tool } from './page-marker'
import { STAMP_KEYS } from './use-marking-keys'
import './marking.i18n'

const ZOOMS = [1, 1.5, 2, 3] as const

type Page = MarkingAnswer['pages'][number]

/** The tools over the pages, each with its key; a tool's button does not take Enter from "Save and next". */
function MarkingToolbar({ tool, onPick, onUndo }: { tool: Tool; onPick: (tool: Tool) => void; onUndo: () => void }) {
  const { t } = useTranslation('marking')
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
  return (
    <div className="marking-toolbar" role="toolbar" aria-label={t('tools.label')}>
      {tools.map((entry) => (
        <button
          key={entry.id}
          type="button"
          className={`marking-tool${tool === entry.id ? ' marking-tool--on' : ''}`}
          aria-pressed={tool === entry.id}
          data-enter-saves="true"
          onClick={() => onPick(entry.id)}
        >
          {entry.label}
          {entry.key && <kbd aria-hidden="true">{entry.key}</kbd>}
        </button>
      ))}
      <button type="button" className="marking-tool" data-enter-saves="true" onClick={onUndo}>
        {t('tools.undo')}
        <kbd aria-hidden="true">Z</kbd>
      </button>
    </div>
  )
}

/** The note tool's box: a note is written where the cursor is. Its text is kept while another tool is on. */
function NoteForm({
  input,
  note,
  setNote,
  onAdd,
}: {
  input: RefObject<HTMLInputElement | null>
  note: string
  setNote: (note: string) => void
  onAdd: (text: string) => void
}) {
  const { t } = useTranslation('marking')
  return (
    <form
      className="marking-note"
      onSubmit={(event) => {
        event.preventDefault()
        if (note.trim() === '') return
        onAdd(note.trim().slice(0, 500))
        setNote('')
      }}
    >
      <label htmlFor="marking-note">{t('tools.note_label')}</label>
      <input
        id="marking-note"
        ref={input}
        value={note}
        maxLength={500}
        onChange={(event) => setNote(event.target.value)}
      />
      <Button type="submit" small>
        {t('tools.note_add')}
      </Button>
    </form>
  )
}

/**
 * An answer's pages being marked: the tools, the page bar (previous, next, rotate, zoom), the note box while the
 * note tool is on, and the page shown with its marks.
 */
export function MarkingPages({
  page,
  pageIndex,
  pageCount,
  onPage,
  marks,
  labels,
  tool,
  onPickTool,
  noteInput,
  cursor,
  onCursor,
  onAdd,
  onUndo,
}: {
  page: Page
  pageIndex: number
  pageCount: number
  onPage: (index: number) => void
  marks: AnnotationMark[]
  labels: AnnotationLabels
  tool: Tool
  onPickTool: (tool: Tool) => void
  noteInput: RefObject<HTMLInputElement | null>
  cursor: Cursor
  onCursor: (cursor: Cursor) => void
  onAdd: (mark: AnnotationMark, advance?: boolean) => void
  onUndo: () => void
}) {
  const { t } = useTranslation('marking')
  const language = useLanguage()
  const [zoom, setZoom] = useState<(typeof ZOOMS)[number]>(1)
  const [rotations, setRotations] = useState<Record<number, Rotation>>({})
  const [note, setNote] = useState('')
  const n = (value: number) => formatNumber(value, language, { maximumFractionDigits: 2 })
  const rotate = () => setRotations((all) => ({ ...all, [page.id]: (((all[page.id] ?? 0) + 90) % 360) as Rotation }))

  return (
    <section className="marking-pages" aria-labelledby="marking-pages-heading">
      <h2 id="marking-pages-heading" className="visually-hidden">
        {t('screen.pages')}
      </h2>
      <MarkingToolbar tool={tool} onPick={onPickTool} onUndo={onUndo} />
      <div className="marking-pagebar">
        <Button small disabled={pageIndex === 0} onClick={() => onPage(pageIndex - 1)}>
          {t('screen.previous_page')}
        </Button>
        <span aria-live="polite">{t('screen.page_of', { number: n(pageIndex + 1), count: n(pageCount) })}</span>
        <Button small disabled={pageIndex >= pageCount - 1} onClick={() => onPage(pageIndex + 1)}>
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
        <NoteForm
          input={noteInput}
          note={note}
          setNote={setNote}
          onAdd={(text) => onAdd({ k: 'note', x: cursor.x, y: cursor.y, text }, true)}
        />
      )}
      <div className="marking-viewport">
        <div className="marking-zoomed" style={{ width: `${zoom * 100}%` }}>
          <PageMarker
            page={page}
            marks={marks}
            labels={labels}
            rotation={rotations[page.id] ?? 0}
            tool={tool}
            cursor={cursor}
            label={t('screen.page_label', { number: n(pageIndex + 1) })}
            onCursor={onCursor}
            onAdd={(mark) => onAdd(mark)}
            sizes={`${zoom * 100}vw`}
          />
        </div>
      </div>
    </section>
  )
}
