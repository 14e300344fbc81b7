import { percentile, sampleGrey, type GreyImage, type Point } from './grey-image'
import { fitHomography, project, type Homography } from './homography'
import type { SheetLayout } from '../sheet/sheet-layout'

const STEP_MM = 0.1
/** How far either side of where a marker's side should be its edge is looked for. */
const REACH_MM = 2.5
/** Where along each side the edge is measured, from the side's middle (kept clear of the rounded, blurred corners). */
const ALONG_MM = [-3, -2, -1, 0, 1, 2, 3]
const SIDES = [
  { nx: -1, ny: 0 },
  { nx: 0, ny: -1 },
  { nx: 1, ny: 0 },
  { nx: 0, ny: 1 },
] as const

interface Line {
  point: Point
  direction: Point
}

/** Where a marker's side turns from ink to paper, half-way across each profile: decision 054 "In the code". */
function edgePoints(image: GreyImage, toImage: Homography, centre: Point, half: number, side: (typeof SIDES)[number]) {
  const points: Point[] = []
  const tx = -side.ny
  const ty = side.nx
  const count = Math.round((2 * REACH_MM) / STEP_MM) + 1
  const profile = new Float64Array(count)
  for (const along of ALONG_MM) {
    for (let i = 0; i < count; i++) {
      const r = half - REACH_MM + i * STEP_MM
      const p = project(toImage, centre.x + side.nx * r + tx * along, centre.y + side.ny * r + ty * along)
      profile[i] = sampleGrey(image, p.x, p.y)
    }
    const ink = percentile(Array.from(profile.subarray(0, 8)), 0.5)
    const paper = percentile(Array.from(profile.subarray(count - 8)), 0.5)
    if (paper - ink < Math.max(12, paper * 0.3)) continue
    const mid = (ink + paper) / 2
    let i = 1
    while (i < count && profile[i]! < mid) i++
    if (i >= count - 8) continue
    // Past the edge the profile must stay paper: a neighbouring mark or a second edge is not this marker's side.
    let dips = 0
    for (let j = i; j < count; j++) if (profile[j]! < mid) dips++
    if (dips > 2) continue
    const r = half - REACH_MM + (i - 1 + (mid - profile[i - 1]!) / (profile[i]! - profile[i - 1]!)) * STEP_MM
    points.push(project(toImage, centre.x + side.nx * r + tx * along, centre.y + side.ny * r + ty * along))
  }
  return points
}

/** The line through points by total least squares, dropping the worst point while it is far off; null if too few. */
function fitLine(points: Point[], tolerancePx: number): Line | null {
  let kept = points
  while (kept.length >= 4) {
    const cx = kept.reduce((s, p) => s + p.x, 0) / kept.length
    const cy = kept.reduce((s, p) => s + p.y, 0) / kept.length
    let sxx = 0
    let syy = 0
    let sxy = 0
    for (const p of kept) {
      sxx += (p.x - cx) ** 2
      syy += (p.y - cy) ** 2
      sxy += (p.x - cx) * (p.y - cy)
    }
    const angle = Math.atan2(2 * sxy, sxx - syy) / 2
    const direction = { x: Math.cos(angle), y: Math.sin(angle) }
    const off = kept.map((p) => Math.abs((p.x - cx) * direction.y - (p.y - cy) * direction.x))
    const worst = off.indexOf(Math.max(...off))
    if (off[worst]! <= tolerancePx) return { point: { x: cx, y: cy }, direction }
    kept = kept.filter((_, i) => i !== worst)
  }
  return null
}

function intersect(a: Line, b: Line): Point | null {
  const det = a.direction.x * b.direction.y - a.direction.y * b.direction.x
  if (Math.abs(det) < 0.2) return null
  const dx = b.point.x - a.point.x
  const dy = b.point.y - a.point.y
  const s = (dx * b.direction.y - dy * b.direction.x) / det
  return { x: a.point.x + s * a.direction.x, y: a.point.y + s * a.direction.y }
}

export function scaleAt(toImage: Homography, x: number, y: number): number {
  const p = project(toImage, x, y)
  const q = project(toImage, x + 1, y)
  const r = project(toImage, x, y + 1)
  return Math.sqrt(Math.abs((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)))
}

/** Whether a marker, as `toImage` places it, is solid ink inside: a square outline or a blob with holes is not. */
function isSolid(image: GreyImage, toImage: Homography, centre: Point, half: number): boolean {
  const inside: number[] = []
  const around: number[] = []
  for (let dy = -half * 0.7; dy <= half * 0.7 + 1e-9; dy += half * 0.2)
    for (let dx = -half * 0.7; dx <= half * 0.7 + 1e-9; dx += half * 0.2) {
      const p = project(toImage, centre.x + dx, centre.y + dy)
      inside.push(sampleGrey(image, p.x, p.y))
    }
  for (let step = 0; step < 32; step++) {
    const angle = (step / 32) * 2 * Math.PI
    const radius = half * Math.SQRT2 + 1.5
    const p = project(toImage, centre.x + radius * Math.cos(angle), centre.y + radius * Math.sin(angle))
    if (p.x >= 0 && p.y >= 0 && p.x <= image.width - 1 && p.y <= image.height - 1)
      around.push(sampleGrey(image, p.x, p.y))
  }
  if (around.length < 16) return false
  // Ink is a few per cent of the paper's light; a shadow's edge across a marker darkens part of the paper around it.
  return percentile(inside, 0.95) < 0.5 * percentile(around, 0.1)
}

export interface RefinedTransform {
  toImage: Homography
  /** The largest distance, in page mm, between a marker corner found in the photo and where the fit puts it. */
  residualMm: number
  /** The 16 corners: where the layout prints them (page mm) and where they were found (image px). */
  corners: { page: Point; image: Point }[]
}

/** The transform fitted to the markers' 16 corners; null when a marker is not a solid square: decision 054. */
export function refineByMarkerEdges(
  image: GreyImage,
  toImage: Homography,
  layout: SheetLayout,
): RefinedTransform | null {
  const pagePoints: Point[] = []
  const imagePoints: Point[] = []
  for (const marker of layout.markers) {
    const centre = { x: marker.x_mm, y: marker.y_mm }
    const half = marker.size_mm / 2
    if (!isSolid(image, toImage, centre, half)) return null
    const tolerance = Math.max(1, 0.25 * scaleAt(toImage, centre.x, centre.y))
    const lines: Line[] = []
    for (const side of SIDES) {
      const line = fitLine(edgePoints(image, toImage, centre, half, side), tolerance)
      if (!line) return null
      lines.push(line)
    }
    for (let i = 0; i < 4; i++) {
      const corner = intersect(lines[i]!, lines[(i + 1) % 4]!)
      if (!corner) return null
      const a = SIDES[i]!
      const b = SIDES[(i + 1) % 4]!
      pagePoints.push({ x: centre.x + half * (a.nx + b.nx), y: centre.y + half * (a.ny + b.ny) })
      imagePoints.push(corner)
    }
  }
  const fitted = fitHomography(pagePoints, imagePoints)
  if (!fitted) return null
  let residualMm = 0
  pagePoints.forEach((page, i) => {
    const p = project(fitted, page.x, page.y)
    const distance = Math.hypot(p.x - imagePoints[i]!.x, p.y - imagePoints[i]!.y) / scaleAt(fitted, page.x, page.y)
    residualMm = Math.max(residualMm, distance)
  })
  return { toImage: fitted, residualMm, corners: pagePoints.map((page, i) => ({ page, image: imagePoints[i]! })) }
}
