import type { ReactNode, Ref, SVGProps } from 'react'
import { FRACTION, type AnnotationDoc, type AnnotationMark, type StampCode } from './annotation-doc'
import { inkPath } from './ink-path'
import { pageSources, type PageImage } from './page-sources'
import './annotated-page.css'

export { pageSources, type PageImage } from './page-sources'

export type Rotation = 0 | 90 | 180 | 270

export interface AnnotationLabels {
  /** The image's text alternative ("Page 2"). */
  page: string
  /** Each stamp's name in the reader's language; "good" is also the words printed on its stamp. */
  stamps: Record<StampCode, string>
  /** A rubric item's short label on the page ("+2"), or undefined when the reader has no such item. */
  item?: (itemId: number) => string | undefined
  /** What a note says aloud before its text ("Note"). */
  note: string
  /** What a box or a stroke is called in the list read to screen readers. */
  box: string
  ink: string
}

const STAMP_SIZE = 0.07
const INK_COLOUR = '#d00000'
const STAMP_COLOUR: Record<StampCode, string> = {
  tick: '#15803d',
  cross: '#c00000',
  question: '#b45309',
  good: '#15803d',
}

function Stamp({ code, x, y, size, label }: { code: StampCode; x: number; y: number; size: number; label: string }) {
  const colour = STAMP_COLOUR[code]
  const stroke = { stroke: colour, strokeWidth: size * 0.12, fill: 'none', strokeLinecap: 'round' as const }
  const half = size / 2
  switch (code) {
    case 'tick':
      return (
        <path
          {...stroke}
          strokeLinejoin="round"
          d={`M${x - half},${y} L${x - half * 0.25},${y + half * 0.7} L${x + half},${y - half * 0.8}`}
        />
      )
    case 'cross':
      return (
        <path
          {...stroke}
          d={`M${x - half},${y - half} L${x + half},${y + half} M${x + half},${y - half} L${x - half},${y + half}`}
        />
      )
    case 'question':
      return (
        <text x={x} y={y + half * 0.7} fontSize={size * 1.4} fontWeight={700} fill={colour} textAnchor="middle">
          ?
        </text>
      )
    case 'good':
      return (
        <g>
          <rect
            x={x - size * 1.2}
            y={y - half * 0.8}
            width={size * 2.4}
            height={size * 0.9}
            rx={size * 0.2}
            fill="#ffffff"
            fillOpacity={0.7}
            stroke={colour}
            strokeWidth={size * 0.06}
          />
          <text x={x} y={y + half * 0.15} fontSize={size * 0.5} fontWeight={700} fill={colour} textAnchor="middle">
            {label}
          </text>
        </g>
      )
  }
}

function Mark({
  mark,
  width,
  height,
  labels,
}: {
  mark: AnnotationMark
  width: number
  height: number
  labels: AnnotationLabels
}) {
  const px = (value: number) => (value * width) / FRACTION
  const py = (value: number) => (value * height) / FRACTION
  const stamp = width * STAMP_SIZE
  switch (mark.k) {
    case 'ink':
      // `width` is in ten-thousandths of the page's width, as positions are: a stroke keeps its weight at any zoom.
      return (
        <path
          d={inkPath(
            mark.points.map(([x, y]) => [px(x), py(y)] as const),
            Math.max(1, px(mark.width)),
          )}
          fill={mark.color || INK_COLOUR}
          fillOpacity={0.85}
        />
      )
    case 'stamp':
      return <Stamp code={mark.code} x={px(mark.x)} y={py(mark.y)} size={stamp} label={labels.stamps[mark.code]} />
    case 'box':
      return (
        <rect
          x={px(mark.x)}
          y={py(mark.y)}
          width={px(mark.w)}
          height={py(mark.h)}
          fill="none"
          stroke={INK_COLOUR}
          strokeWidth={width * 0.004}
        />
      )
    case 'note': {
      const noteWidth = width * 0.3
      return (
        <foreignObject
          x={Math.min(px(mark.x), width - noteWidth)}
          y={py(mark.y)}
          width={noteWidth}
          height={height * 0.25}
        >
          <div className="annotated-page__note" style={{ fontSize: width * 0.022 }}>
            {mark.text}
          </div>
        </foreignObject>
      )
    }
    case 'item': {
      const label = labels.item?.(mark.item_id) ?? '•'
      const r = stamp * 0.45
      return (
        <g>
          <circle
            cx={px(mark.x)}
            cy={py(mark.y)}
            r={r}
            fill="#ffffff"
            fillOpacity={0.8}
            stroke={INK_COLOUR}
            strokeWidth={r * 0.12}
          />
          <text
            x={px(mark.x)}
            y={py(mark.y) + r * 0.35}
            fontSize={label.length > 3 ? r * 0.7 : r}
            fontWeight={700}
            fill={INK_COLOUR}
            textAnchor="middle"
          >
            {label}
          </text>
        </g>
      )
    }
  }
}

/** What each mark is, read out by screen readers: the drawing itself is hidden from them. */
function describe(mark: AnnotationMark, labels: AnnotationLabels): string {
  switch (mark.k) {
    case 'ink':
      return labels.ink
    case 'stamp':
      return labels.stamps[mark.code]
    case 'box':
      return labels.box
    case 'note':
      return `${labels.note}: ${mark.text}`
    case 'item':
      return labels.item?.(mark.item_id) ?? labels.box
  }
}

/**
 * A marked page, read-only: the page's image with its annotation doc drawn over it as SVG in the image's own pixel
 * space, so every mark scales with the image at any width or zoom (WEB.md "Written answers"). The marking screen
 * passes pointer handlers and its live stroke through `svgProps` and `children`.
 */
export function AnnotatedPage({
  page,
  doc,
  labels,
  rotation = 0,
  svgProps,
  svgRef,
  children,
  className,
  sizes = '100vw',
  priority = false,
}: {
  page: PageImage
  doc: AnnotationDoc
  labels: AnnotationLabels
  rotation?: Rotation
  svgProps?: SVGProps<SVGSVGElement>
  svgRef?: Ref<SVGSVGElement>
  children?: ReactNode
  className?: string
  /** How wide the page is drawn (the <img> `sizes`): a sideways page is drawn narrower, so this is never too small. */
  sizes?: string
  /**
   * The screen's first page: fetched at once, ahead of the rest. Any other waits until it scrolls near, so that on a
   * slow connection it does not share the first page's bandwidth.
   */
  priority?: boolean
}) {
  const { width, height } = page
  const sources = pageSources(page)
  const sideways = rotation === 90 || rotation === 270
  // Strokes are read out once ("Pen marks"), every other mark by what it is.
  const hasInk = doc.marks.some((mark) => mark.k === 'ink')
  const described = [
    ...doc.marks.filter((mark) => mark.k !== 'ink').map((mark) => describe(mark, labels)),
    ...(hasInk ? [labels.ink] : []),
  ]
  return (
    <div
      className={`annotated-page${className ? ` ${className}` : ''}`}
      style={{ aspectRatio: sideways ? `${height} / ${width}` : `${width} / ${height}` }}
    >
      <div
        className="annotated-page__sheet"
        data-rotation={rotation}
        style={{
          width: sideways ? `${(width / height) * 100}%` : '100%',
          aspectRatio: `${width} / ${height}`,
          transform: `translate(-50%, -50%) rotate(${rotation}deg)`,
        }}
      >
        <img
          src={sources.src}
          srcSet={sources.srcSet}
          sizes={sources.srcSet ? sizes : undefined}
          alt={labels.page}
          width={width}
          height={height}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
          draggable={false}
        />
        <svg
          ref={svgRef}
          className="annotated-page__marks"
          viewBox={`0 0 ${width} ${height}`}
          aria-hidden="true"
          focusable="false"
          {...svgProps}
        >
          {doc.marks.map((mark, index) => (
            <Mark key={index} mark={mark} width={width} height={height} labels={labels} />
          ))}
          {children}
        </svg>
      </div>
      {described.length > 0 && (
        <ul className="visually-hidden">
          {described.map((text, index) => (
            <li key={index}>{text}</li>
          ))}
        </ul>
      )}
    </div>
  )
}

/**
 * Where a pointer event falls on a page, in fractions 0..1 of the page's own width and height, whatever its rotation:
 * the sheet's box on screen is rotated, so the point is turned back about the sheet's centre.
 */
export function pointOnSheet(
  clientX: number,
  clientY: number,
  sheet: HTMLElement | SVGElement,
  rotation: Rotation,
): [number, number] {
  const box = sheet.getBoundingClientRect()
  const sideways = rotation === 90 || rotation === 270
  const width = sideways ? box.height : box.width
  const height = sideways ? box.width : box.height
  const dx = clientX - (box.left + box.width / 2)
  const dy = clientY - (box.top + box.height / 2)
  const angle = (-rotation * Math.PI) / 180
  const x = dx * Math.cos(angle) - dy * Math.sin(angle)
  const y = dx * Math.sin(angle) + dy * Math.cos(angle)
  return [width > 0 ? x / width + 0.5 : 0, height > 0 ? y / height + 0.5 : 0]
}
