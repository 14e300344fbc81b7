import { centreOf, MIN_RING_CONTRAST, sightNearWithin, stretchedAbout } from './bubble-sight'
import { fitModel, rectOf, REGION_STRETCHES } from './fit-page'
import type { GreyImage, Point } from './grey-image'
import { fitHomography, invertHomography, project, type Homography } from './homography'
import { modelOffset, regionHomography, type ModelControl } from './page-model'
import type { Bubble } from '../sheet/sheet-layout'

// A page three markers placed (the fourth cut off by the frame) takes its perspective from its rows' rings
// (decision 115, issue 79).

/** A printed point the reader found: where the layout prints it (page mm), and its offset from `toImage` (mm). */
export interface FoundPoint {
  page: Point
  offset: Point
}

/** A block whose rings sit further than this (mm) from the homography through the others is left out as a slip. */
const SLIP_MM = 1.5
/** At least this many blocks' rings, beside the markers, for the rings to tell the page's perspective. */
const MIN_BLOCKS = 8

/**
 * The homography through the markers' centres and the blocks' rings found around the three markers' affine
 * transform, leaving out the farthest block while one is over a slip's distance; null when too few blocks were
 * found. The three markers' corners, 9 mm apart, cannot tell the page's perspective: over the page's 280 mm the
 * affine transform misses the rows near the lost corner by more than the rings are looked for around it.
 */
export function homographyThroughRings(
  toImage: Homography,
  markers: readonly FoundPoint[],
  blocks: readonly FoundPoint[],
): Homography | null {
  let kept = [...blocks]
  while (kept.length >= MIN_BLOCKS) {
    const points = [...markers, ...kept]
    const pages = points.map((p) => p.page)
    const images = points.map((p) => project(toImage, p.page.x + p.offset.x, p.page.y + p.offset.y))
    const fitted = fitHomography(pages, images)
    if (!fitted) return null
    const back = invertHomography(fitted)
    if (!back) return null
    const misses = kept.map((p) => {
      const at = project(toImage, p.page.x + p.offset.x, p.page.y + p.offset.y)
      const seen = project(back, at.x, at.y)
      return Math.hypot(seen.x - p.page.x, seen.y - p.page.y)
    })
    const worst = misses.indexOf(Math.max(...misses))
    if (misses[worst]! <= SLIP_MM) return fitted
    kept = kept.filter((_, i) => i !== worst)
  }
  return null
}

/** Around where the model puts a block, its rings are looked for at these shifts (mm), each within 0.8 mm. */
const SHIFTS = [-1.6, 0, 1.6]
const AROUND: [number, number][] = [
  [0, 0],
  ...SHIFTS.flatMap((dx) => SHIFTS.map((dy): [number, number] => [dx, dy])).filter(([dx, dy]) => dx !== 0 || dy !== 0),
]
/** The block as the model puts it, then stretched along one axis as a region is when read (`fit-page.ts`). */
const STRETCHES = [[1, 1], ...REGION_STRETCHES]
/** A found offset this near its shift's edge of search is left: the rings may be further still. */
const NEAR_MM = 0.7
/**
 * A block is taken with at most this share of its rings unseen (a curl scales it a little against the model): one
 * a row or an option over leaves a whole row or column of its rings on paper, a quarter of a block of 4 by 4.
 */
const UNSEEN_SHARE = 0.15
/** A block is looked for only within this (mm) of a marker or a block found: the model is trusted so far out. */
const GROW_MM = 80
/** Rounds of growing the blocks found outwards from the markers. */
const ROUNDS = 8

const shifted = (h: Homography, dx: number, dy: number): Homography => [
  h[0]!,
  h[1]!,
  h[0]! * dx + h[1]! * dy + h[2]!,
  h[3]!,
  h[4]!,
  h[3]! * dx + h[4]! * dy + h[5]!,
  h[6]!,
  h[7]!,
  h[6]! * dx + h[7]! * dy + h[8]!,
]

/**
 * The blocks whose rings are found where the page model through the markers and the blocks found so far puts them,
 * grown outwards from the three markers round by round: a block is looked for only near what was found, within 2.3
 * mm of where the model puts it, and taken only with nearly every ring seen, so a block a row (5.1 mm) or an option
 * (6 mm) over, whose end row or column falls on paper, is not taken for it. A search a few millimetres wide around the
 * affine transform, as a column's is, finds the curled rows near the lost corner a row or two over (issue 79).
 */
export function growRings<B extends Bubble>(
  image: GreyImage,
  toImage: Homography,
  markers: readonly ModelControl[],
  blocks: readonly (readonly B[])[],
  retryMm: number | null = null,
): (FoundPoint & { block: number })[] {
  const found = new Map<number, FoundPoint & { block: number }>()
  const centres = blocks.map((block) => centreOf(block))
  // With `retryMm`, a block not found is looked for again only once the model has moved it that far (mm).
  const triedAt = new Map<number, Point>()
  for (let round = 0; round < ROUNDS; round++) {
    const controls = [...found.values()].map((f) => ({ page: f.page, offset: f.offset, weight: 1 }))
    const model = fitModel(toImage, [...markers, ...controls], [])
    const anchors = [...markers, ...controls].map((c) => c.page)
    let added = 0
    blocks.forEach((block, b) => {
      const page = centres[b]!
      if (found.has(b) || !anchors.some((a) => Math.hypot(a.x - page.x, a.y - page.y) <= GROW_MM)) return
      const at = modelOffset(model, page.x, page.y)
      const before = triedAt.get(b)
      if (retryMm !== null && before && Math.hypot(at.x - before.x, at.y - before.y) < retryMm) return
      triedAt.set(b, at)
      const base = regionHomography(model, rectOf(block))
      let best: { offset: Point; plainness: number } | null = null
      // Where the model puts it first: the shifts around it only when its rings are not all there, and the block
      // stretched as a curl magnifies the page near its lifted edge only when it is not found unstretched.
      for (const [sx, sy] of STRETCHES) {
        const stretched = stretchedAbout(base, page, sx, sy)
        for (const [dx, dy] of AROUND) {
          // An offset past NEAR_MM is left: the fine search is not run where it cannot end nearer.
          const near = sightNearWithin(image, shifted(stretched, dx, dy), block, NEAR_MM)
          if (!near || Math.hypot(near.offset.x, near.offset.y) > NEAR_MM) continue
          const unseen = near.sighted.filter((s) => s.contrast < MIN_RING_CONTRAST || s.glare).length
          if (unseen > near.sighted.length * UNSEEN_SHARE) continue
          const plainness = near.sighted.reduce((sum, s) => sum + s.contrast, 0)
          if (!best || plainness > best.plainness)
            best = { offset: { x: dx + near.offset.x, y: dy + near.offset.y }, plainness }
          if (unseen === 0 && dx === 0 && dy === 0) break
        }
        if (best) break
      }
      if (!best) return
      found.set(b, { page, offset: { x: at.x + best.offset.x, y: at.y + best.offset.y }, block: b })
      added++
    })
    if (added === 0) break
  }
  return [...found.values()]
}

/** Where the rings are grown from: a transform of the page and the markers' centres as offsets from it. */
export interface RingSeed {
  toImage: Homography
  markers: ModelControl[]
}

/**
 * The seeds the rings are grown from, in turn: the three markers' affine transform, then the homography through the
 * corners of two markers on one edge of the page alone. A curl that carries a marker out of the frame lifts its edge,
 * often the other marker on that edge too, and a transform through a lifted marker misses the first blocks by several
 * millimetres; the two markers of the edge that lies flat place the page near them, their sizes telling the
 * perspective along the edge (a near marker shows larger than a far one, which an affine transform averages away).
 * Which edge is flat is not guessed: each seed is grown, and only its rings place the page (issue 79).
 */
export function ringSeeds(
  toImage: Homography,
  centres: readonly ModelControl[],
  corners: readonly ModelControl[],
): RingSeed[] {
  const seeds: RingSeed[] = [{ toImage, markers: [...centres] }]
  const nearest = (c: ModelControl) =>
    centres.reduce(
      (best, m, i) =>
        Math.hypot(m.page.x - c.page.x, m.page.y - c.page.y) <
        Math.hypot(centres[best]!.page.x - c.page.x, centres[best]!.page.y - c.page.y)
          ? i
          : best,
      0,
    )
  const owner = corners.map(nearest)
  centres.forEach((first, i) =>
    centres.forEach((second, j) => {
      if (j <= i || (first.page.x !== second.page.x && first.page.y !== second.page.y)) return
      const own = corners.filter((_, k) => owner[k] === i || owner[k] === j)
      const pages = own.map((c) => c.page)
      const images = own.map((c) => project(toImage, c.page.x + c.offset.x, c.page.y + c.offset.y))
      const seed = fitHomography(pages, images)
      if (seed) seeds.push({ toImage: seed, markers: controlsFrom(toImage, seed, [first, second]) })
    }),
  )
  return seeds
}

/** Controls found as offsets from `from`, as offsets from `to`: the same points of the photo. */
export function controlsFrom(from: Homography, to: Homography, controls: readonly ModelControl[]): ModelControl[] {
  const back = invertHomography(to)
  if (!back) return [...controls]
  return controls.map((c) => {
    const at = project(from, c.page.x + c.offset.x, c.page.y + c.offset.y)
    const seen = project(back, at.x, at.y)
    return { ...c, offset: { x: seen.x - c.page.x, y: seen.y - c.page.y } }
  })
}
