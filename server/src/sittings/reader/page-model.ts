import type { Point } from './grey-image'
import { project, solveHomography, solveWithTwoSides, type Homography } from './homography'

/**
 * The page as the photo shows it, bent or not (docs/decisions/115): the markers' homography, and a thin-plate
 * spline of how far (page mm) each printed point sits from where that homography puts it. It is fitted through the
 * points the reader found: the markers' corners and the bubble rings of each block. A flat page fits with the
 * spline near zero; a curl, a fold or a wide lens bends it smoothly.
 */
export interface PageModel {
  base: Homography
  /** Control points (page mm), their spline weights for x and y, and the affine part: [a0, ax, ay] per axis. */
  centres: readonly Point[]
  wx: Float64Array
  wy: Float64Array
  ax: readonly number[]
  ay: readonly number[]
}

/** A point the model is fitted through: where it is printed (page mm) and how far from `base` it was found. */
export interface ModelControl {
  page: Point
  offset: Point
  /** How much it counts: a marker's corner, found to a tenth of a millimetre, counts more than a block's rings. */
  weight: number
}

/** The thin-plate kernel r^2 log r, with r in units of 100 mm so the system stays well scaled. */
function kernel(dx: number, dy: number): number {
  const r2 = (dx * dx + dy * dy) / 10_000
  return r2 <= 1e-12 ? 0 : 0.5 * r2 * Math.log(r2)
}

/** A flat page: the homography alone. */
export function flatModel(base: Homography): PageModel {
  return { base, centres: [], wx: new Float64Array(0), wy: new Float64Array(0), ax: [0, 0, 0], ay: [0, 0, 0] }
}

/**
 * The smoothing spline through the controls: `stiffness` trades following each control against bending (a
 * larger one keeps the surface flatter). Null when the system is singular (too few controls, all on a line).
 */
export function fitPageModel(base: Homography, controls: readonly ModelControl[], stiffness: number): PageModel | null {
  const n = controls.length
  if (n < 3) return null
  const size = n + 3
  const a = Array.from({ length: size }, () => new Float64Array(size + 2))
  for (let i = 0; i < n; i++) {
    const p = controls[i]!.page
    for (let j = 0; j < n; j++) {
      const q = controls[j]!.page
      a[i]![j] = kernel(p.x - q.x, p.y - q.y)
    }
    a[i]![i] = a[i]![i]! + stiffness / controls[i]!.weight
    const affine = [1, p.x / 100, p.y / 100]
    for (let k = 0; k < 3; k++) {
      a[i]![n + k] = affine[k]!
      a[n + k]![i] = affine[k]!
    }
    a[i]![size] = controls[i]!.offset.x
    a[i]![size + 1] = controls[i]!.offset.y
  }
  const solution = solveWithTwoSides(a, size)
  if (!solution) return null
  const [sx, sy] = solution
  return {
    base,
    centres: controls.map((c) => c.page),
    wx: sx.subarray(0, n),
    wy: sy.subarray(0, n),
    ax: [sx[n]!, sx[n + 1]!, sx[n + 2]!],
    ay: [sy[n]!, sy[n + 1]!, sy[n + 2]!],
  }
}

/** How far (page mm) the model moves a printed point from where the homography alone puts it. */
export function modelOffset(model: PageModel, x: number, y: number): Point {
  let dx = model.ax[0]! + (model.ax[1]! * x) / 100 + (model.ax[2]! * y) / 100
  let dy = model.ay[0]! + (model.ay[1]! * x) / 100 + (model.ay[2]! * y) / 100
  for (let i = 0; i < model.centres.length; i++) {
    const c = model.centres[i]!
    const k = kernel(x - c.x, y - c.y)
    dx += model.wx[i]! * k
    dy += model.wy[i]! * k
  }
  return { x: dx, y: dy }
}

/** Where the model puts a printed point (page mm) in the photo (px). */
export function modelPoint(model: PageModel, x: number, y: number): Point {
  const d = modelOffset(model, x, y)
  return project(model.base, x + d.x, y + d.y)
}

export interface PageRect {
  left: number
  top: number
  right: number
  bottom: number
}

/**
 * The model over a small region as one homography through its four corners: a bend is straight across a few
 * rows, so every step that measures with a homography (ring search, fill, boxes) measures there with this one.
 */
export function regionHomography(model: PageModel, rect: PageRect): Homography {
  const corners = [
    { x: rect.left, y: rect.top },
    { x: rect.right, y: rect.top },
    { x: rect.right, y: rect.bottom },
    { x: rect.left, y: rect.bottom },
  ]
  return (
    solveHomography(
      corners,
      corners.map((c) => modelPoint(model, c.x, c.y)),
    ) ?? model.base
  )
}
