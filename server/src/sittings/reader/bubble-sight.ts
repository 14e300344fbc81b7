import { sampleGrey, type GreyImage, type Point } from './grey-image'
import { project, type Homography } from './homography'
import { OPTION_PITCH_MM, ROW_PITCH_MM, type Bubble } from '../sheet/sheet-layout'

/** Each block of bubbles is found again by its printed outlines, as a fold moves it (docs/decisions/066). */

const ANGLES = 12
/** The directions a ring is sampled at: the same for every template, so their cosines are taken once. */
const ANGLE_COS = Array.from({ length: ANGLES }, (_, a) => Math.cos((a / ANGLES) * 2 * Math.PI))
const ANGLE_SIN = Array.from({ length: ANGLES }, (_, a) => Math.sin((a / ANGLES) * 2 * Math.PI))
/** Where paper is looked for beyond the printed outline: past its stroke and its blur, short of a neighbour. */
const OUTSIDE_MM = 0.75
/** The first block of a run is looked for this far around the markers' place; the next ones around the last. */
export const FIRST_REACH_MM = 4
/**
 * On a bent page (decision 115) the markers' transform misplaces the middle of the page by up to a column of
 * options (6 mm: two markers on a curled edge both lifted); the first blocks are looked for past that, and the
 * guard of rings beyond the block's edges tells the block from its slips.
 */
export const BENT_REACH_MM = 8
const NEXT_REACH_MM = 1.6
const COARSE_STEP_MM = 0.4
const FINE_REACH_MM = 0.4
const FINE_STEP_MM = 0.1
/** A ring fainter than this (its darkness against the paper beside it) is not seen: the bubble cannot be read. */
export const MIN_RING_CONTRAST = 0.1
/**
 * A printed ring is dark against the paper outside it all round: in at least this many of its ANGLES directions. A
 * question's number beside its row (digits 2.2 mm high, a ring 4.5 mm across) darkens 2-4 of them, at the ring's sides:
 * a block read an option over, its first ring on the number, sees it at ring contrast (issue 79).
 */
export const MIN_RING_ARC = 5
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
  /** In how many of the ring's ANGLES directions it is darker than the paper outside it (by MIN_RING_CONTRAST). */
  arc: number
}

interface Template {
  /** Sample positions (image px) at zero offset: ring then outside, ANGLES each, per bubble. */
  ring: Float64Array
  outside: Float64Array
  /** The same positions interleaved for scoring: outside x, y, then ring x, y, per sample. */
  pairs: Float64Array
  /** The least and greatest x and y of all the positions: a block moved well inside the image needs no clamping. */
  box: { left: number; top: number; right: number; bottom: number }
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
      const cos = ANGLE_COS[a]!
      const sin = ANGLE_SIN[a]!
      const r = project(toImage, b.x_mm + b.r_mm * cos, b.y_mm + b.r_mm * sin)
      const o = project(toImage, b.x_mm + (b.r_mm + OUTSIDE_MM) * cos, b.y_mm + (b.r_mm + OUTSIDE_MM) * sin)
      ring[k] = r.x
      ring[k + 1] = r.y
      outside[k] = o.x
      outside[k + 1] = o.y
      k += 2
    }
  const pairs = new Float64Array(ring.length * 2)
  const box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity }
  for (let k = 0; k < ring.length; k += 2) {
    pairs[2 * k] = outside[k]!
    pairs[2 * k + 1] = outside[k + 1]!
    pairs[2 * k + 2] = ring[k]!
    pairs[2 * k + 3] = ring[k + 1]!
    box.left = Math.min(box.left, outside[k]!, ring[k]!)
    box.top = Math.min(box.top, outside[k + 1]!, ring[k + 1]!)
    box.right = Math.max(box.right, outside[k]!, ring[k]!)
    box.bottom = Math.max(box.bottom, outside[k + 1]!, ring[k + 1]!)
  }
  const cx = bubbles.reduce((s, b) => s + b.x_mm, 0) / bubbles.length
  const cy = bubbles.reduce((s, b) => s + b.y_mm, 0) / bubbles.length
  const c = project(toImage, cx, cy)
  const px = project(toImage, cx + 1, cy)
  const py = project(toImage, cx, cy + 1)
  return { ring, outside, pairs, box, ux: { x: px.x - c.x, y: px.y - c.y }, uy: { x: py.x - c.x, y: py.y - c.y } }
}

/** The outlines' summed darkness against the paper outside them, with the block moved by (dx, dy) mm. */
function score(image: GreyImage, t: Template, dx: number, dy: number): number {
  const sx = t.ux.x * dx + t.uy.x * dy
  const sy = t.ux.y * dx + t.uy.y * dy
  const { data, width, height } = image
  const { left, top, right, bottom } = t.box
  // The hot loop of ring sighting. Moved with every position at least a pixel inside the image's last column and
  // row (float addition keeps order, so the box's corners bound every sample), no sample is clamped or read as 0:
  // `sampleGrey`'s bilinear reading is written out without those checks, the same arithmetic in the same order, so
  // the score is bit for bit what sampling point by point gives. A floored position is truncated (`| 0`): it is >= 0.
  if (left + sx >= 0 && top + sy >= 0 && right + sx < width - 1 && bottom + sy < height - 1) {
    const pairs = t.pairs
    let sum = 0
    for (let k = 0; k < pairs.length; k += 4) {
      const ox = pairs[k]! + sx
      const oy = pairs[k + 1]! + sy
      const ox0 = ox | 0
      const oy0 = oy | 0
      const ofx = ox - ox0
      const ofy = oy - oy0
      const o = oy0 * width + ox0
      const paper =
        (data[o]! * (1 - ofx) + data[o + 1]! * ofx) * (1 - ofy) +
        (data[o + width]! * (1 - ofx) + data[o + width + 1]! * ofx) * ofy
      const rx = pairs[k + 2]! + sx
      const ry = pairs[k + 3]! + sy
      const rx0 = rx | 0
      const ry0 = ry | 0
      const rfx = rx - rx0
      const rfy = ry - ry0
      const r = ry0 * width + rx0
      const ink =
        (data[r]! * (1 - rfx) + data[r + 1]! * rfx) * (1 - rfy) +
        (data[r + width]! * (1 - rfx) + data[r + width + 1]! * rfx) * rfy
      sum += paper - ink
    }
    return sum
  }
  let sum = 0
  for (let k = 0; k < t.ring.length; k += 2)
    sum +=
      sampleGrey(image, t.outside[k]! + sx, t.outside[k + 1]! + sy) -
      sampleGrey(image, t.ring[k]! + sx, t.ring[k + 1]! + sy)
  return sum
}

/** Where a block's grid would continue past its edges with no bubble printed: a row's slip lands rings there. */
function beyondEdges(block: readonly Bubble[], printed: readonly Bubble[] = block): Bubble[] {
  const taken = (x: number, y: number) => printed.some((b) => Math.abs(b.x_mm - x) < 1 && Math.abs(b.y_mm - y) < 1)
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
  return searchPeaks(image, t, around, reach, step, guard, 1)[0]!
}

/** The `count` best local maxima of the outlines' score (less the guard's) around `around`, best first. */
function searchPeaks(
  image: GreyImage,
  t: Template,
  around: Point,
  reach: number,
  step: number,
  guard: Template | null,
  count: number,
): (Point & { score: number })[] {
  const side = Math.floor((2 * reach + 1e-9) / step) + 1
  const scores = new Float64Array(side * side)
  for (let j = 0; j < side; j++)
    for (let i = 0; i < side; i++) {
      const x = around.x - reach + i * step
      const y = around.y - reach + j * step
      scores[j * side + i] = score(image, t, x, y) - (guard ? score(image, guard, x, y) : 0)
    }
  if (count === 1) {
    // The best peak is the first place of the highest score: no neighbour beats it, none before it ties it, and the
    // stable sort keeps it ahead of later ties (scores are finite: a sample off the image reads 0).
    let best = 0
    for (let at = 1; at < scores.length; at++) if (scores[at]! > scores[best]!) best = at
    const i = best % side
    const j = (best - i) / side
    return [{ x: around.x - reach + i * step, y: around.y - reach + j * step, score: scores[best]! }]
  }
  const peaks: (Point & { score: number })[] = []
  for (let j = 0; j < side; j++)
    for (let i = 0; i < side; i++) {
      const here = scores[j * side + i]!
      let highest = true
      for (let b = Math.max(0, j - 1); b <= Math.min(side - 1, j + 1) && highest; b++)
        for (let a = Math.max(0, i - 1); a <= Math.min(side - 1, i + 1); a++)
          if (scores[b * side + a]! > here || (scores[b * side + a] === here && b * side + a < j * side + i)) {
            highest = false
            break
          }
      if (highest) peaks.push({ x: around.x - reach + i * step, y: around.y - reach + j * step, score: here })
    }
  return peaks.sort((p, q) => q.score - p.score).slice(0, count)
}

/** Each bubble's ring contrast and glare, with the block moved by `offset` mm. */
function sight<B extends Bubble>(image: GreyImage, t: Template, bubbles: readonly B[], offset: Point) {
  const sx = t.ux.x * offset.x + t.uy.x * offset.y
  const sy = t.ux.y * offset.x + t.uy.y * offset.y
  return bubbles.map((bubble, i): SightedBubble<B> => {
    let ring = 0
    let paper = 0
    let clipped = 0
    let arc = 0
    for (let a = 0; a < ANGLES; a++) {
      const k = (i * ANGLES + a) * 2
      const r = sampleGrey(image, t.ring[k]! + sx, t.ring[k + 1]! + sy)
      const o = sampleGrey(image, t.outside[k]! + sx, t.outside[k + 1]! + sy)
      ring += r
      paper += o
      if (r >= CLIPPED || o >= CLIPPED) clipped++
      if (o > 0 && o - r >= MIN_RING_CONTRAST * o) arc++
    }
    const contrast = paper > 0 ? Math.max(0, (paper - ring) / paper) : 0
    const at = { ...bubble, x_mm: bubble.x_mm + offset.x, y_mm: bubble.y_mm + offset.y }
    return { bubble, at, contrast, glare: clipped >= ANGLES / 3, arc }
  })
}

/** Coarse peaks of a run's first block looked at finely: a sharp ring's peak can fall between the coarse steps. */
const FIRST_CANDIDATES = 3

/** Where a run's first block may be, best first, by the fine score (issue 59's fold photos): decision 054. */
function firstPlaces(image: GreyImage, t: Template, guard: Template, from: Point, reach: number) {
  return searchPeaks(image, t, from, reach, COARSE_STEP_MM, guard, FIRST_CANDIDATES)
    .map((coarse) => searchPeaks(image, t, coarse, FINE_REACH_MM, FINE_STEP_MM, guard, 1)[0]!)
    .sort((p, q) => q.score - p.score)
}

/** A run followed from its first block near `start`, each next block near the one before: decision 054. */
function follow<B extends Bubble>(
  image: GreyImage,
  templates: readonly Template[],
  blocks: readonly (readonly B[])[],
  start: Point,
) {
  const offsets: Point[] = []
  let last = start
  for (const t of templates) {
    const coarse = search(image, t, last, NEXT_REACH_MM, COARSE_STEP_MM, null)
    last = search(image, t, coarse, FINE_REACH_MM, FINE_STEP_MM, null)
    offsets.push(last)
  }
  return { offsets, sighted: blocks.map((block, b) => sight(image, templates[b]!, block, offsets[b]!)) }
}

/** Finds blocks of bubbles again by their outlines, each near where the one before it was: decision 054. */
export function sightBlocks<B extends Bubble>(
  image: GreyImage,
  toImage: Homography,
  blocks: readonly (readonly B[])[],
  reach = FIRST_REACH_MM,
): SightedBubble<B>[][] {
  const templates = blocks.map((block) => template(toImage, block))
  const guard = template(toImage, beyondEdges(blocks[0]!, blocks.flat()))
  return follow(image, templates, blocks, firstPlaces(image, templates[0]!, guard, { x: 0, y: 0 }, reach)[0]!).sighted
}

/** The bubbles of a block's top row (`end` -1) or bottom row (+1), and where the next row out would be printed. */
function endRow(block: readonly Bubble[], end: -1 | 1) {
  const edge = end < 0 ? Math.min(...block.map((b) => b.y_mm)) : Math.max(...block.map((b) => b.y_mm))
  const row = block.filter((b) => Math.abs(b.y_mm - edge) < 1)
  return { row, beyond: row.map((b) => ({ ...b, y_mm: b.y_mm + end * ROW_PITCH_MM })) }
}

const meanContrast = (sighted: readonly SightedBubble<Bubble>[]) =>
  sighted.reduce((sum, s) => sum + s.contrast, 0) / sighted.length

/** What lies a row past a column's end block, as `toImage` and `offset` place it: rings, paper, or nothing seen. */
export function columnEnd(image: GreyImage, toImage: Homography, block: readonly Bubble[], offset: Point, end: -1 | 1) {
  const { row, beyond } = endRow(block, end)
  const seen = meanContrast(sight(image, template(toImage, row), row, offset))
  const past = meanContrast(sight(image, template(toImage, beyond), beyond, offset))
  if (past >= MIN_RING_CONTRAST && past >= BEYOND_SHARE * seen) return 'ringed'
  return seen >= MIN_RING_CONTRAST ? 'clear' : 'unseen'
}

/** Whether a column, as followed, has paper a row past its ends (a row's slip shows there): decision 054. */
function endsClear(image: GreyImage, toImage: Homography, blocks: readonly (readonly Bubble[])[], offsets: Point[]) {
  const ends = ([-1, 1] as const).map((end) => {
    const b = end < 0 ? 0 : blocks.length - 1
    return columnEnd(image, toImage, blocks[b]!, offsets[b]!, end)
  })
  return !ends.includes('ringed') && ends.includes('clear')
}

/** A column's row past an end is taken for rings when it is seen at least this share as plainly as the end row. */
const BEYOND_SHARE = 0.5

export interface SightedColumn<B extends Bubble> {
  blocks: SightedBubble<B>[][]
  /** Where (page mm, from the markers' place) the column's first block was found: the next column starts there. */
  start: Point
  /** Whether the column has paper a row past both ends where it was found; if not, it may be a row over. */
  endsClear: boolean
}

/**
 * The stretches a block is tried at on a bent page, along the page's width and its height about the block's middle:
 * a curl along an edge magnifies the page across that edge, by up to a tenth where the paper rises steeply.
 */
export const BENT_STRETCHES = [0.94, 1, 1.06, 1.12]

/** The middle of some bubbles (page mm). */
export const centreOf = (bubbles: readonly Bubble[]): Point => ({
  x: bubbles.reduce((sum, b) => sum + b.x_mm, 0) / bubbles.length,
  y: bubbles.reduce((sum, b) => sum + b.y_mm, 0) / bubbles.length,
})

/** `toImage` with the page stretched by `sx` and `sy` about `centre` (page mm) first. */
export function stretchedAbout(toImage: Homography, centre: Point, sx: number, sy: number): Homography {
  const a = [sx, 0, centre.x * (1 - sx), 0, sy, centre.y * (1 - sy), 0, 0, 1]
  const out = new Array<number>(9).fill(0)
  for (let r = 0; r < 3; r++)
    for (let k = 0; k < 3; k++)
      for (let j = 0; j < 3; j++) out[r * 3 + j] = out[r * 3 + j]! + toImage[r * 3 + k]! * a[k * 3 + j]!
  return out
}

/**
 * A run's first block and its guard at each stretch a curl may give it (decision 115): the markers' transform of a
 * curled page is scaled against the page near the lifted edge, so a row's first ring falls off its template and a
 * block slipped by an option can score as high as the block itself. Made once per column, for every place tried.
 */
function bentTemplates(toImage: Homography, blocks: readonly (readonly Bubble[])[]) {
  const block = blocks[0]!
  const centre = centreOf(block)
  const beyond = beyondEdges(block, blocks.flat())
  const out: { t: Template; guard: Template }[] = []
  for (const sx of BENT_STRETCHES)
    for (const sy of BENT_STRETCHES) {
      const h = stretchedAbout(toImage, centre, sx, sy)
      out.push({ t: template(h, block), guard: template(h, beyond) })
    }
  return out
}

/** A run's first block at `place`, scored at the stretch that fits it best (decision 115). */
function bentScore(image: GreyImage, stretched: readonly { t: Template; guard: Template }[], place: Point): number {
  let best = -Infinity
  for (const { t, guard } of stretched) {
    const peak = searchPeaks(image, t, place, FINE_REACH_MM, 2 * FINE_STEP_MM, guard, 1)[0]!
    best = Math.max(best, searchPeaks(image, t, peak, FINE_STEP_MM * 2, FINE_STEP_MM, guard, 1)[0]!.score)
  }
  return best
}

/**
 * Whether a column as followed has an option's place with no ring seen down all its rows: a column an option over
 * puts its rows' last (or first) bubble on the paper past the row, every row alike (decision 115, issue 79).
 */
function hasHollowOption(sighted: readonly SightedBubble<Bubble>[][]): boolean {
  const byOption = new Map<number, number[]>()
  for (const block of sighted) {
    const rows = new Map<number, SightedBubble<Bubble>[]>()
    for (const s of block) {
      const key = Math.round(s.bubble.y_mm * 10)
      rows.set(key, [...(rows.get(key) ?? []), s])
    }
    for (const row of rows.values())
      [...row]
        .sort((p, q) => p.bubble.x_mm - q.bubble.x_mm)
        .forEach((s, option) => byOption.set(option, [...(byOption.get(option) ?? []), s.contrast]))
  }
  return [...byOption.values()].some(
    (contrasts) =>
      contrasts.length >= 4 && contrasts.reduce((sum, c) => sum + c, 0) / contrasts.length < MIN_RING_CONTRAST,
  )
}

/** Finds a column of questions by its outlines, block by block down from `from`: decision 054 "In the code". */
export function sightColumn<B extends Bubble>(
  image: GreyImage,
  toImage: Homography,
  blocks: readonly (readonly B[])[],
  from: Point,
  reach = FIRST_REACH_MM,
  bent = false,
): SightedColumn<B> {
  const templates = blocks.map((block) => template(toImage, block))
  const guard = template(toImage, beyondEdges(blocks[0]!, blocks.flat()))
  const places = firstPlaces(image, templates[0]!, guard, from, reach)
  const best = places[0]!
  const tries = [...places]
  // On a bent page the column may also be an option over: its places there are tried too.
  const shifts = [
    { x: 0, y: -ROW_PITCH_MM },
    { x: 0, y: ROW_PITCH_MM },
    ...(bent ? [-OPTION_PITCH_MM, OPTION_PITCH_MM].map((x) => ({ x, y: 0 })) : []),
  ]
  for (const shift of shifts) {
    const around = { x: best.x + shift.x, y: best.y + shift.y }
    if (!tries.some((p) => Math.hypot(p.x - around.x, p.y - around.y) < 1))
      tries.push(searchPeaks(image, templates[0]!, around, FINE_REACH_MM, FINE_STEP_MM, guard, 1)[0]!)
  }
  // On a bent page, each place is scored again with the block turned and scaled a little as a curl turns it there.
  const stretched = reach > FIRST_REACH_MM ? bentTemplates(toImage, blocks) : []
  const scored = reach > FIRST_REACH_MM ? tries.map((p) => ({ ...p, score: bentScore(image, stretched, p) })) : tries
  scored.sort((p, q) => q.score - p.score)
  let first: SightedColumn<B> | null = null
  for (const start of scored) {
    const { offsets, sighted } = follow(image, templates, blocks, start)
    const clear = endsClear(image, toImage, blocks, offsets) && !(bent && hasHollowOption(sighted))
    if (clear) return { blocks: sighted, start: offsets[0]!, endsClear: true }
    first ??= { blocks: sighted, start: offsets[0]!, endsClear: false }
  }
  return first!
}

/** How far around where the page model puts a block its rings are looked for again (decision 115). */
const NEAR_REACH_MM = 0.8

/**
 * A block's rings looked for again near where `toImage` (a page model's homography for the block's region) puts
 * them: the offset found is the model's residual there, page mm.
 */
export function sightNear<B extends Bubble>(image: GreyImage, toImage: Homography, block: readonly B[]) {
  return sightNearWithin(image, toImage, block, Infinity)!
}

/**
 * `sightNear`, or null when the coarse search's peak is so far out that the fine search around it (a fifth of a
 * millimetre each way) cannot end within `within` mm: a caller that would leave such an offset is spared the fine
 * search and the sighting, and every offset it keeps is found by the same arithmetic.
 */
export function sightNearWithin<B extends Bubble>(
  image: GreyImage,
  toImage: Homography,
  block: readonly B[],
  within: number,
) {
  const t = template(toImage, block)
  const coarse = search(image, t, { x: 0, y: 0 }, NEAR_REACH_MM, 2 * FINE_STEP_MM, null)
  // The fine places lie within 2 * FINE_STEP_MM of the coarse peak along each axis (less a rounding's margin).
  const least = (v: number) => Math.max(0, Math.abs(v) - 2 * FINE_STEP_MM - 1e-6)
  if (Math.hypot(least(coarse.x), least(coarse.y)) > within) return null
  const offset = search(image, t, coarse, FINE_STEP_MM * 2, FINE_STEP_MM, null)
  return { offset, sighted: sight(image, t, block, offset) }
}
