import { sampleGrey, type GreyImage, type Point } from './grey-image'
import { project, type Homography } from './homography'
import { OPTION_PITCH_MM, ROW_PITCH_MM, type Bubble } from '../sheet/sheet-layout'

/**
 * The reader looks where the markers' transform puts each bubble, but a folded or curled sheet moves the middle of
 * the page millimetres away from that (issue 59). So each block of bubbles is found again by its printed outlines
 * (docs/decisions/066): the offset, in page millimetres, at which the rings are darkest against the paper just
 * outside them; and a bubble whose ring cannot be seen there (glare, a crease, a stain) is not read as blank.
 */

const ANGLES = 12
/** Where paper is looked for beyond the printed outline: past its stroke and its blur, short of a neighbour. */
const OUTSIDE_MM = 0.75
/** The first block of a run is looked for this far around the markers' place; the next ones around the last. */
const FIRST_REACH_MM = 4
const NEXT_REACH_MM = 1.6
const COARSE_STEP_MM = 0.4
const FINE_REACH_MM = 0.4
const FINE_STEP_MM = 0.1
/** A ring fainter than this (its darkness against the paper beside it) is not seen: the bubble cannot be read. */
export const MIN_RING_CONTRAST = 0.1
/** A grey level this high is clipped highlight: glare, where ink and paper both measure white. */
const CLIPPED = 250

export interface SightedBubble<B extends Bubble> {
  bubble: B
  /** The bubble where it was found, page mm. */
  at: B
  /** The ring's darkness against the paper just outside it, 0..1. */
  contrast: number
  /** Whether the ring's surroundings are clipped white (glare). */
  glare: boolean
}

interface Template {
  /** Sample positions (image px) at zero offset: ring then outside, ANGLES each, per bubble. */
  ring: Float64Array
  outside: Float64Array
  /** Image pixels per page millimetre along x and along y, at the block's middle. */
  ux: Point
  uy: Point
}

function template(toImage: Homography, bubbles: readonly Bubble[]): Template {
  const ring = new Float64Array(bubbles.length * ANGLES * 2)
  const outside = new Float64Array(bubbles.length * ANGLES * 2)
  let k = 0
  for (const b of bubbles)
    for (let a = 0; a < ANGLES; a++) {
      const cos = Math.cos((a / ANGLES) * 2 * Math.PI)
      const sin = Math.sin((a / ANGLES) * 2 * Math.PI)
      const r = project(toImage, b.x_mm + b.r_mm * cos, b.y_mm + b.r_mm * sin)
      const o = project(toImage, b.x_mm + (b.r_mm + OUTSIDE_MM) * cos, b.y_mm + (b.r_mm + OUTSIDE_MM) * sin)
      ring[k] = r.x
      ring[k + 1] = r.y
      outside[k] = o.x
      outside[k + 1] = o.y
      k += 2
    }
  const cx = bubbles.reduce((s, b) => s + b.x_mm, 0) / bubbles.length
  const cy = bubbles.reduce((s, b) => s + b.y_mm, 0) / bubbles.length
  const c = project(toImage, cx, cy)
  const px = project(toImage, cx + 1, cy)
  const py = project(toImage, cx, cy + 1)
  return { ring, outside, ux: { x: px.x - c.x, y: px.y - c.y }, uy: { x: py.x - c.x, y: py.y - c.y } }
}

/** The outlines' summed darkness against the paper outside them, with the block moved by (dx, dy) mm. */
function score(image: GreyImage, t: Template, dx: number, dy: number): number {
  const sx = t.ux.x * dx + t.uy.x * dy
  const sy = t.ux.y * dx + t.uy.y * dy
  let sum = 0
  for (let k = 0; k < t.ring.length; k += 2)
    sum +=
      sampleGrey(image, t.outside[k]! + sx, t.outside[k + 1]! + sy) -
      sampleGrey(image, t.ring[k]! + sx, t.ring[k + 1]! + sy)
  return sum
}

/**
 * Where a block's grid would continue one pitch beyond its edges and the sheet prints no bubble: a block moved by a
 * whole row or option matches as many rings as the right place, but then rings land on these, which counts against.
 */
function beyondEdges(block: readonly Bubble[]): Bubble[] {
  const taken = (x: number, y: number) => block.some((b) => Math.abs(b.x_mm - x) < 1 && Math.abs(b.y_mm - y) < 1)
  const out: Bubble[] = []
  for (const b of block)
    for (const [dx, dy] of [
      [OPTION_PITCH_MM, 0],
      [-OPTION_PITCH_MM, 0],
      [0, ROW_PITCH_MM],
      [0, -ROW_PITCH_MM],
    ] as const) {
      const x = b.x_mm + dx
      const y = b.y_mm + dy
      if (!taken(x, y) && !out.some((o) => Math.abs(o.x_mm - x) < 1 && Math.abs(o.y_mm - y) < 1))
        out.push({ x_mm: x, y_mm: y, r_mm: b.r_mm })
    }
  return out
}

function search(
  image: GreyImage,
  t: Template,
  around: Point,
  reach: number,
  step: number,
  guard: Template | null,
): Point {
  let best = { x: around.x, y: around.y }
  let bestScore = -Infinity
  for (let dy = -reach; dy <= reach + 1e-9; dy += step)
    for (let dx = -reach; dx <= reach + 1e-9; dx += step) {
      const x = around.x + dx
      const y = around.y + dy
      const s = score(image, t, x, y) - (guard ? score(image, guard, x, y) : 0)
      if (s > bestScore) {
        bestScore = s
        best = { x, y }
      }
    }
  return best
}

/** Each bubble's ring contrast and glare, with the block moved by `offset` mm. */
function sight<B extends Bubble>(image: GreyImage, t: Template, bubbles: readonly B[], offset: Point) {
  const sx = t.ux.x * offset.x + t.uy.x * offset.y
  const sy = t.ux.y * offset.x + t.uy.y * offset.y
  return bubbles.map((bubble, i): SightedBubble<B> => {
    let ring = 0
    let paper = 0
    let clipped = 0
    for (let a = 0; a < ANGLES; a++) {
      const k = (i * ANGLES + a) * 2
      const r = sampleGrey(image, t.ring[k]! + sx, t.ring[k + 1]! + sy)
      const o = sampleGrey(image, t.outside[k]! + sx, t.outside[k + 1]! + sy)
      ring += r
      paper += o
      if (r >= CLIPPED || o >= CLIPPED) clipped++
    }
    const contrast = paper > 0 ? Math.max(0, (paper - ring) / paper) : 0
    const at = { ...bubble, x_mm: bubble.x_mm + offset.x, y_mm: bubble.y_mm + offset.y }
    return { bubble, at, contrast, glare: clipped >= ANGLES / 3 }
  })
}

/**
 * Finds blocks of bubbles again by their outlines, in order: a run (a column of questions from the top, the roll
 * grid) moves smoothly on a bent page, so each block is looked for close to where the one before it was found. The
 * first is looked for widely, so it must also leave paper where its grid would continue past its edges: a grid's
 * rings repeat, and without that a column could be taken a whole row over (issue 59's bench did).
 */
export function sightBlocks<B extends Bubble>(
  image: GreyImage,
  toImage: Homography,
  blocks: readonly (readonly B[])[],
): SightedBubble<B>[][] {
  let last: Point = { x: 0, y: 0 }
  return blocks.map((block, index) => {
    const t = template(toImage, block)
    const guard = index === 0 ? template(toImage, beyondEdges(block)) : null
    const coarse = search(image, t, last, index === 0 ? FIRST_REACH_MM : NEXT_REACH_MM, COARSE_STEP_MM, guard)
    last = search(image, t, coarse, FINE_REACH_MM, FINE_STEP_MM, guard)
    return sight(image, t, block, last)
  })
}
