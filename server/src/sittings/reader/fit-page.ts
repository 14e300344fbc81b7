import {
  BENT_STRETCHES,
  centreOf,
  MIN_RING_CONTRAST,
  sightNear,
  stretchedAbout,
  type SightedBubble,
} from './bubble-sight'
import type { GreyImage, Point } from './grey-image'
import type { Homography } from './homography'
import { fitPageModel, flatModel, modelOffset, regionHomography, type ModelControl, type PageModel } from './page-model'
import type { Bubble } from '../sheet/sheet-layout'

// The page model fitted through the rings the reader finds, and each region read through it (decision 115).

/** How stiff the surface is: enough that one block's slip (a row, 5.1 mm) stands out against its neighbours. */
export const RING_STIFFNESS = 0.002
/** A block of rings this far (mm) from the surface through the others is left out of the fit, as a slip. */
const OUTLIER_MM = 1.2
/** At most this many slips are left out before the fit is taken as it is. */
const MAX_OUTLIERS = 6
/** A region whose rings sit further than this (mm) from where the model puts them is flagged, not read. */
export const RESIDUAL_MM = 0.6

export interface RegionToFit<B extends Bubble> {
  bubbles: readonly B[]
  /** Where the block's rings were first found, as an offset (page mm) from the markers' transform; null: untrusted. */
  found: Point | null
}

export interface FittedRegion<B extends Bubble> {
  bubbles: readonly B[]
  /** The model over the region as one homography: fills and boxes are measured through it. */
  toImage: Homography
  sighted: SightedBubble<B>[]
  /** How far (page mm) the rings sit from where the model puts them. */
  residualMm: number
  /** The region's four corners in page mm, for the reader's view. */
  rect: { left: number; top: number; right: number; bottom: number }
}

export function rectOf(bubbles: readonly Bubble[]) {
  const r = Math.max(...bubbles.map((b) => b.r_mm)) + 1.5
  return {
    left: Math.min(...bubbles.map((b) => b.x_mm)) - r,
    top: Math.min(...bubbles.map((b) => b.y_mm)) - r,
    right: Math.max(...bubbles.map((b) => b.x_mm)) + r,
    bottom: Math.max(...bubbles.map((b) => b.y_mm)) + r,
  }
}

/** The smooth surface through the markers' corners and the blocks' rings, leaving out blocks that slipped. */
export function fitModel<B extends Bubble>(
  base: Homography,
  markers: readonly ModelControl[],
  regions: readonly RegionToFit<B>[],
): PageModel {
  let rings = regions.flatMap((region) =>
    region.found ? [{ page: centreOf(region.bubbles), offset: region.found, weight: 1 }] : [],
  )
  let model = fitPageModel(base, [...markers, ...rings], RING_STIFFNESS) ?? flatModel(base)
  for (let dropped = 0; dropped < MAX_OUTLIERS && rings.length > 3; dropped++) {
    const misses = rings.map((c) => {
      const d = modelOffset(model, c.page.x, c.page.y)
      return Math.hypot(d.x - c.offset.x, d.y - c.offset.y)
    })
    const worst = misses.indexOf(Math.max(...misses))
    if (misses[worst]! <= OUTLIER_MM) break
    rings = rings.filter((_, i) => i !== worst)
    model = fitPageModel(base, [...markers, ...rings], RING_STIFFNESS) ?? model
  }
  return model
}

/** A region is tried stretched along one axis at a time: a curl magnifies the page across its lifted edge. */
export const REGION_STRETCHES = BENT_STRETCHES.filter((k) => k !== 1).flatMap((k) => [
  [k, 1],
  [1, k],
])

/** A region the model misses by more than the limit, or with a ring of it not seen where the model puts it. */
const poorlySeen = (residualMm: number, sighted: readonly SightedBubble<Bubble>[]) =>
  residualMm > RESIDUAL_MM || sighted.some((s) => s.contrast < MIN_RING_CONTRAST)

const meanContrast = (sighted: readonly SightedBubble<Bubble>[]) =>
  sighted.reduce((sum, s) => sum + s.contrast, 0) / sighted.length

/**
 * Each region's rings looked for again where the model puts them: how far they are is the region's residual. A
 * region the model misses, or where a ring is not seen, is tried stretched along the page's width and height (a
 * curl magnifies the page near its lifted edge more steeply than the surface through the blocks' places follows):
 * the stretch under the limit whose rings are seen most plainly is the region's, as a translation under a
 * millimetre cannot be a slip (decision 115). Without `stretch`, the offsets found are the model's own, to fit it again.
 */
export function readThroughModel<B extends Bubble>(
  image: GreyImage,
  model: PageModel,
  regions: readonly (readonly B[])[],
  stretch = true,
): FittedRegion<B>[] {
  return regions.map((bubbles) => {
    const rect = rectOf(bubbles)
    const base = regionHomography(model, rect)
    let toImage = base
    let near = sightNear(image, base, bubbles)
    let residualMm = Math.hypot(near.offset.x, near.offset.y)
    if (stretch && poorlySeen(residualMm, near.sighted)) {
      const centre = centreOf(bubbles)
      let plainest = residualMm > RESIDUAL_MM ? -Infinity : meanContrast(near.sighted)
      for (const [sx, sy] of REGION_STRETCHES) {
        const stretched = stretchedAbout(base, centre, sx, sy)
        const there = sightNear(image, stretched, bubbles)
        const residual = Math.hypot(there.offset.x, there.offset.y)
        const plainness = meanContrast(there.sighted)
        if (residual <= RESIDUAL_MM && plainness > plainest) {
          plainest = plainness
          toImage = stretched
          near = there
          residualMm = residual
        }
      }
    }
    return { bubbles, toImage, sighted: near.sighted, residualMm, rect }
  })
}

/**
 * The page model through the markers taken two ways, each with the blocks' rings, and the regions read through the
 * one that fits them better (fewer blocks it passes over a slip's distance from where their rings were found, then
 * fewer poorly seen regions, then less residual in all): each marker at its centre (a curl's lifted marker is larger
 * and turned, and its corners would bend the middle of the page a column over), or each of its corners (a wide
 * lens's scale near the markers, which the centres do not give) (decision 115).
 */
export function fitAndRead<B extends Bubble>(
  image: GreyImage,
  base: Homography,
  markerWays: readonly (readonly ModelControl[])[],
  toFit: readonly RegionToFit<B>[],
) {
  const bubbles = toFit.map((r) => r.bubbles)
  const attempt = (controls: readonly ModelControl[]) => {
    const model = fitModel(base, controls, toFit)
    const regions = readThroughModel(image, model, bubbles)
    const poor = regions.filter((r) => poorlySeen(r.residualMm, r.sighted)).length
    const residual = regions.reduce((sum, r) => sum + r.residualMm, 0)
    // Blocks the surface passes far from where their rings were found: the markers' way bent it off the rings.
    const missed = toFit.filter((r) => {
      if (!r.found) return false
      const c = centreOf(r.bubbles)
      const d = modelOffset(model, c.x, c.y)
      return Math.hypot(d.x - r.found.x, d.y - r.found.y) > OUTLIER_MM
    }).length
    return { controls, model, regions, poor, residual, missed }
  }
  const better = (p: ReturnType<typeof attempt>, q: ReturnType<typeof attempt>) =>
    p.missed !== q.missed ? p.missed < q.missed : p.poor !== q.poor ? p.poor < q.poor : p.residual < q.residual
  let best = attempt(markerWays[0]!)
  // A way that fits every region is kept: the next is tried only where this one leaves a region poorly fitted.
  for (const controls of markerWays.slice(1)) {
    if (best.poor === 0 && best.missed === 0) break
    const next = attempt(controls)
    if (better(next, best)) best = next
  }
  return best
}
