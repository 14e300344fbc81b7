import { useState } from 'react'
import { readAnnotationDoc, type AnnotationMark } from '../../components/annotations/annotation-doc'
import type { EvaluationInput, MarkingAnswer } from './marking.api'
import { runningTotal, toggleItem } from './marking-score'
import type { Cursor } from './page-marker'

/** Where marks land until the marker points elsewhere: the right margin, moving down after each mark. */
const START: Cursor = { x: 9000, y: 700 }
const CURSOR_DROP = 600

/**
 * One answer's marking as it is being done: the items applied, the adjustment, the comment, each page's marks and
 * cursor, the page shown; and the evaluation they make, as saved. Starts from the answer's evaluation, if any.
 */
export function useAnswerMarking(answer: MarkingAnswer) {
  const { rubric, pages, evaluation } = answer
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
  const [cursors, setCursors] = useState<Record<number, Cursor>>({})

  const page = pages[pageIndex]
  const cursor = (page && cursors[page.id]) ?? START
  const total = runningTotal(rubric, applied, adjustment)

  const setCursor = (next: Cursor) => page && setCursors((all) => ({ ...all, [page.id]: next }))
  const dropCursor = () => {
    if (page) setCursors((all) => ({ ...all, [page.id]: { x: cursor.x, y: Math.min(9600, cursor.y + CURSOR_DROP) } }))
  }
  /** A mark on the page shown; `advance` moves the cursor down for the next one (stamps and notes by key). */
  const addMark = (mark: AnnotationMark, advance = false) => {
    if (!page) return
    setMarks((all) => ({ ...all, [page.id]: [...(all[page.id] ?? []), mark] }))
    if (advance) dropCursor()
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
    if (next.has(itemId)) dropCursor()
  }
  const evaluationInput = (): EvaluationInput => {
    const trimmed = comment.trim()
    return {
      items: [...applied],
      adjustment,
      // One comment box: the marker writes in either language and the learner reads it whichever they chose.
      comment: trimmed ? { en: trimmed, ne: trimmed } : null,
      annotations: pages.map((entry) => ({ page_id: entry.id, doc: { v: 1, marks: marks[entry.id] ?? [] } })),
      rubric_revision: rubric.revision,
    }
  }

  return {
    applied,
    adjustment,
    setAdjustment,
    comment,
    setComment,
    marks,
    page,
    pageIndex,
    setPageIndex,
    cursor,
    setCursor,
    total,
    addMark,
    undo,
    toggle,
    evaluationInput,
  }
}
