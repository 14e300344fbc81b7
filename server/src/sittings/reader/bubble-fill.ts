import { percentile, sampleGrey, type GreyImage } from './grey-image'
import { project, type Homography } from './homography'
import type { Bubble, SheetLayout } from '../sheet/sheet-layout'

/** How the page's light and ink look in this photo: decision 054 "In the code". */
export interface PageLevels {
  inkRatio: number
  /** The paper's grey level beside the markers (0..255): a dark photo shows here. */
  paper: number
}

/** A point's darkness counts from NO_INK (paper grain, JPEG noise, the printed letter) to FULL_INK, pencil's. */
const NO_INK = 0.1
const FULL_INK = 0.5
/** The ring sampled, as fractions of the radius: inside the outline, outside the printed letter. */
const INNER = 0.4
const OUTER = 0.74
const STEP_MM = 0.25

export function measurePageLevels(image: GreyImage, toImage: Homography, layout: SheetLayout): PageLevels {
  const ratios: number[] = []
  const papers: number[] = []
  for (const marker of layout.markers) {
    const ink: number[] = []
    const paper: number[] = []
    const half = marker.size_mm / 2
    for (let dy = -half * 0.6; dy <= half * 0.6; dy += 0.5)
      for (let dx = -half * 0.6; dx <= half * 0.6; dx += 0.5) {
        const p = project(toImage, marker.x_mm + dx, marker.y_mm + dy)
        ink.push(sampleGrey(image, p.x, p.y))
      }
    for (let angle = 0; angle < 2 * Math.PI; angle += Math.PI / 16) {
      const radius = half + 2.2
      const p = project(toImage, marker.x_mm + radius * Math.cos(angle), marker.y_mm + radius * Math.sin(angle))
      paper.push(sampleGrey(image, p.x, p.y))
    }
    const paperLevel = percentile(paper, 0.75)
    papers.push(paperLevel)
    ratios.push(percentile(ink, 0.5) / Math.max(1, paperLevel))
  }
  return { inkRatio: Math.min(0.9, percentile(ratios, 0.5)), paper: percentile(papers, 0.5) }
}

const SECTORS = 12
/** The directions around a bubble its paper is sampled at, two a sector: fixed, so their cosines are taken once. */
const PAPER_COS = Array.from({ length: 2 * SECTORS }, (_, step) => Math.cos((step / (2 * SECTORS)) * 2 * Math.PI))
const PAPER_SIN = Array.from({ length: 2 * SECTORS }, (_, step) => Math.sin((step / (2 * SECTORS)) * 2 * Math.PI))
/** Samples a sector holds: two directions at each of two radii. */
const PER_SECTOR = 4

/**
 * The paper's grey level around a bubble, per direction, so a shadow's edge is judged on its side: decision 054.
 * Run for every bubble read, so its samples go in typed arrays kept between calls: the 0.8 percentile of a sector
 * and its two neighbours is the same value whichever order they are sorted from (grey levels: finite, never -0).
 */
const sectorSamples = new Float64Array(SECTORS * PER_SECTOR)
const aroundSamples = new Float64Array(3 * PER_SECTOR)
function localPaper(image: GreyImage, toImage: Homography, bubble: Bubble): Float64Array {
  const filled = new Uint8Array(SECTORS)
  for (const radius of [bubble.r_mm + 0.55, bubble.r_mm + 0.9])
    for (let step = 0; step < 2 * SECTORS; step++) {
      const p = project(toImage, bubble.x_mm + radius * PAPER_COS[step]!, bubble.y_mm + radius * PAPER_SIN[step]!)
      const sector = step >> 1
      sectorSamples[sector * PER_SECTOR + filled[sector]!++] = sampleGrey(image, p.x, p.y)
    }
  const paper = new Float64Array(SECTORS)
  for (let k = 0; k < SECTORS; k++) {
    for (let d = -1; d <= 1; d++)
      aroundSamples.set(
        sectorSamples.subarray(
          ((k + d + SECTORS) % SECTORS) * PER_SECTOR,
          ((k + d + SECTORS) % SECTORS) * PER_SECTOR + PER_SECTOR,
        ),
        (d + 1) * PER_SECTOR,
      )
    paper[k] = Math.max(1, sortedPercentile(aroundSamples, 0.8))
  }
  return paper
}

/**
 * `percentile` for values with no NaN and no -0, sorted in place by the typed array's own numeric sort: the same
 * value at the same index as sorting by `a - b`, without calling a comparator for each pair.
 */
function sortedPercentile(values: Float64Array, fraction: number): number {
  if (values.length === 0) return 0
  values.sort()
  const index = Math.min(values.length - 1, Math.max(0, Math.round(fraction * (values.length - 1))))
  return values[index]!
}

/** The paper a point of the bubble is judged against: its own side's; near the middle, the darkest side's (`darkest`). */
function paperAt(paper: Float64Array, darkest: number, dx: number, dy: number, inner: number): number {
  if (dx * dx + dy * dy < inner * inner) return darkest
  const turn = Math.atan2(dy, dx) / (2 * Math.PI)
  return paper[Math.round((turn < 0 ? turn + 1 : turn) * SECTORS) % SECTORS]!
}

/** How far (in grid steps of STEP_MM) a point's neighbours must be inked too for it to count as filled. */
const THIN = 2

/**
 * How full a bubble is, 0..1, against the paper around it (two measures, the larger): decision 054 "In the code".
 * Its grid's values are clamped to 0..1 (never NaN, never -0), so their median is taken by `sortedPercentile`.
 */
export function bubbleFill(image: GreyImage, toImage: Homography, levels: PageLevels, bubble: Bubble): number {
  const paper = localPaper(image, toImage, bubble)
  // The darkest side's paper, taken once: every point near the middle is judged against it.
  const darkest = Math.min(...paper)
  const inkDepth = 1 - levels.inkRatio
  const reach = bubble.r_mm * OUTER
  const inner = bubble.r_mm * INNER
  const half = Math.floor(reach / STEP_MM) + THIN
  const side = 2 * half + 1
  const grid = new Float64Array(side * side)
  for (let j = 0; j < side; j++)
    for (let i = 0; i < side; i++) {
      const dx = (i - half) * STEP_MM
      const dy = (j - half) * STEP_MM
      const p = project(toImage, bubble.x_mm + dx, bubble.y_mm + dy)
      const darkness = (1 - sampleGrey(image, p.x, p.y) / paperAt(paper, darkest, dx, dy, bubble.r_mm * 0.3)) / inkDepth
      grid[j * side + i] = Math.min(1, Math.max(0, (darkness - NO_INK) / (FULL_INK - NO_INK)))
    }
  const disc = new Float64Array(side * side)
  let discCount = 0
  let sum = 0
  let count = 0
  for (let j = THIN; j < side - THIN; j++)
    for (let i = THIN; i < side - THIN; i++) {
      const dx = (i - half) * STEP_MM
      const dy = (j - half) * STEP_MM
      const distance = dx * dx + dy * dy
      if (distance > reach * reach) continue
      const at = j * side + i
      disc[discCount++] = grid[at]!
      if (distance < inner * inner) continue
      sum += Math.min(grid[at]!, grid[at - THIN]!, grid[at + THIN]!, grid[at - THIN * side]!, grid[at + THIN * side]!)
      count++
    }
  return Math.max(count ? sum / count : 0, sortedPercentile(disc.subarray(0, discCount), 0.5))
}
