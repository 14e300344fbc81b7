import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react'
import {
  AnnotatedPage,
  pointOnSheet,
  type AnnotationLabels,
  type PageImage,
  type Rotation,
} from '../../components/annotations/annotated-page'
import { FRACTION, toFraction, type AnnotationMark, type StampCode } from '../../components/annotations/annotation-doc'
import { inkPath } from '../../components/annotations/ink-path'

export type Tool = 'point' | 'pen' | 'box' | 'note' | StampCode
export interface Cursor {
  x: number
  y: number
}

/** The pen: red, 0.4 % of the page's width (a 2 mm nib on an A4 page). */
export const INK = { width: 40, color: '#d00000' } as const
/** Points closer than this (in ten-thousandths) add nothing to a stroke but bytes (a doc is at most 32 KB a page). */
const MIN_STEP = 25
/** Arrow keys move the cursor by this much of the page. */
const CURSOR_STEP = 200

/**
 * One page being marked: the shared renderer with the marker's tools on top. A click places the active stamp or
 * the cursor, a drag draws with the pen or a box; the page takes focus and its arrow keys move the cursor, where
 * keyboard stamps and rubric items land.
 */
export function PageMarker({
  page,
  marks,
  labels,
  rotation,
  tool,
  cursor,
  label,
  onCursor,
  onAdd,
  sizes,
}: {
  page: PageImage
  marks: readonly AnnotationMark[]
  labels: AnnotationLabels
  rotation: Rotation
  tool: Tool
  cursor: Cursor
  label: string
  onCursor: (cursor: Cursor) => void
  onAdd: (mark: AnnotationMark) => void
  /** How wide the page is drawn: the marker's zoom, so zooming in on a phone takes the full page. */
  sizes?: string
}) {
  const svg = useRef<SVGSVGElement>(null)
  const [stroke, setStroke] = useState<[number, number][] | null>(null)
  const [boxFrom, setBoxFrom] = useState<Cursor | null>(null)
  const [boxTo, setBoxTo] = useState<Cursor | null>(null)

  const at = (event: PointerEvent<SVGSVGElement>): Cursor => {
    const [x, y] = pointOnSheet(event.clientX, event.clientY, svg.current!, rotation)
    return { x: toFraction(x), y: toFraction(y) }
  }
  const down = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return
    const point = at(event)
    if (tool === 'pen') {
      event.currentTarget.setPointerCapture?.(event.pointerId)
      setStroke([[point.x, point.y]])
    } else if (tool === 'box') {
      event.currentTarget.setPointerCapture?.(event.pointerId)
      setBoxFrom(point)
      setBoxTo(point)
    } else {
      onCursor(point)
      if (tool !== 'point' && tool !== 'note') onAdd({ k: 'stamp', code: tool, x: point.x, y: point.y })
    }
  }
  const move = (event: PointerEvent<SVGSVGElement>) => {
    if (stroke) {
      const point = at(event)
      const last = stroke[stroke.length - 1]!
      if (Math.abs(point.x - last[0]) + Math.abs(point.y - last[1]) >= MIN_STEP)
        setStroke([...stroke, [point.x, point.y]])
    } else if (boxFrom) setBoxTo(at(event))
  }
  const up = () => {
    if (stroke) {
      onAdd({ k: 'ink', points: stroke, width: INK.width, color: INK.color })
      setStroke(null)
    }
    if (boxFrom && boxTo) {
      const x = Math.min(boxFrom.x, boxTo.x)
      const y = Math.min(boxFrom.y, boxTo.y)
      const w = Math.abs(boxTo.x - boxFrom.x)
      const h = Math.abs(boxTo.y - boxFrom.y)
      if (w > 50 && h > 50) onAdd({ k: 'box', x, y, w, h })
      onCursor({ x, y })
    }
    setBoxFrom(null)
    setBoxTo(null)
  }
  const keys = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    }
    const step = moves[event.key]
    if (!step) return
    event.preventDefault()
    const clamp = (value: number) => Math.min(FRACTION, Math.max(0, value))
    onCursor({ x: clamp(cursor.x + step[0] * CURSOR_STEP), y: clamp(cursor.y + step[1] * CURSOR_STEP) })
  }

  const px = (value: number) => (value * page.width) / FRACTION
  const py = (value: number) => (value * page.height) / FRACTION
  const cross = page.width * 0.02
  return (
    // An application: its arrow keys move the cursor rather than the screen reader's reading position.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions, jsx-a11y/no-noninteractive-tabindex -- a drawing surface whose arrow keys move the marking cursor: marking by keyboard needs it focusable (WCAG 2.1.1)
    <div className="page-marker" data-tool={tool} tabIndex={0} role="application" aria-label={label} onKeyDown={keys}>
      <AnnotatedPage
        page={page}
        doc={{ v: 1, marks: [...marks] }}
        labels={labels}
        rotation={rotation}
        svgRef={svg}
        svgProps={{ onPointerDown: down, onPointerMove: move, onPointerUp: up, onPointerCancel: up }}
        sizes={sizes}
        priority
      >
        {stroke && (
          <path
            d={inkPath(
              stroke.map(([x, y]) => [px(x), py(y)] as const),
              px(INK.width),
            )}
            fill={INK.color}
          />
        )}
        {boxFrom && boxTo && (
          <rect
            x={px(Math.min(boxFrom.x, boxTo.x))}
            y={py(Math.min(boxFrom.y, boxTo.y))}
            width={px(Math.abs(boxTo.x - boxFrom.x))}
            height={py(Math.abs(boxTo.y - boxFrom.y))}
            fill="none"
            stroke={INK.color}
            strokeDasharray={`${cross / 2}`}
            strokeWidth={page.width * 0.003}
          />
        )}
        <g className="page-marker__cursor" stroke="#1d4ed8" strokeWidth={page.width * 0.003}>
          <line x1={px(cursor.x) - cross} y1={py(cursor.y)} x2={px(cursor.x) + cross} y2={py(cursor.y)} />
          <line x1={px(cursor.x)} y1={py(cursor.y) - cross} x2={px(cursor.x)} y2={py(cursor.y) + cross} />
        </g>
      </AnnotatedPage>
    </div>
  )
}
