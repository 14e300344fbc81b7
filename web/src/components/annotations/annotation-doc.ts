import type { AnnotationDoc } from '@quiz/contracts'

// A marked page's annotations (API.md "Written answers marked by rubric"): vectors in page fractions, 0..10,000 of
// the page's width and height, so they scale with the image and look the same on every screen.
export type { AnnotationDoc } from '@quiz/contracts'
export type AnnotationMark = AnnotationDoc['marks'][number]
export type StampCode = Extract<AnnotationMark, { k: 'stamp' }>['code']
export type InkMark = Extract<AnnotationMark, { k: 'ink' }>

export const FRACTION = 10_000
export const STAMP_CODES: readonly StampCode[] = ['tick', 'cross', 'question', 'good']
export const EMPTY_DOC: AnnotationDoc = { v: 1, marks: [] }

const isPosition = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= FRACTION

function readMark(value: unknown): AnnotationMark | null {
  if (typeof value !== 'object' || value === null) return null
  const mark = value as Record<string, unknown>
  switch (mark.k) {
    case 'ink': {
      const points = Array.isArray(mark.points)
        ? mark.points.filter(
            (point): point is [number, number] =>
              Array.isArray(point) && point.length === 2 && isPosition(point[0]) && isPosition(point[1]),
          )
        : []
      if (points.length === 0) return null
      const width = typeof mark.width === 'number' && mark.width > 0 ? mark.width : 30
      const color = typeof mark.color === 'string' && /^#[0-9a-fA-F]{6}$/.test(mark.color) ? mark.color : '#d00000'
      return { k: 'ink', points, width, color }
    }
    case 'stamp':
      return STAMP_CODES.includes(mark.code as StampCode) && isPosition(mark.x) && isPosition(mark.y)
        ? { k: 'stamp', code: mark.code as StampCode, x: mark.x, y: mark.y }
        : null
    case 'box':
      return isPosition(mark.x) && isPosition(mark.y) && isPosition(mark.w) && isPosition(mark.h)
        ? { k: 'box', x: mark.x, y: mark.y, w: mark.w, h: mark.h }
        : null
    case 'note':
      return isPosition(mark.x) && isPosition(mark.y) && typeof mark.text === 'string'
        ? { k: 'note', x: mark.x, y: mark.y, text: mark.text }
        : null
    case 'item':
      return typeof mark.item_id === 'number' && isPosition(mark.x) && isPosition(mark.y)
        ? { k: 'item', item_id: mark.item_id, x: mark.x, y: mark.y }
        : null
    default:
      return null
  }
}

/**
 * A doc as the server sent it (typed `unknown` on the wire): what is well formed is drawn, anything else is
 * skipped, so one odd mark never blanks a learner's page.
 */
export function readAnnotationDoc(value: unknown): AnnotationDoc {
  if (typeof value !== 'object' || value === null) return EMPTY_DOC
  const marks = (value as { marks?: unknown }).marks
  if (!Array.isArray(marks)) return EMPTY_DOC
  return { v: 1, marks: marks.map(readMark).filter((mark): mark is AnnotationMark => mark !== null) }
}

/** A position clamped to the page, as an integer fraction. */
export const toFraction = (share: number) => Math.round(Math.min(1, Math.max(0, share)) * FRACTION)
