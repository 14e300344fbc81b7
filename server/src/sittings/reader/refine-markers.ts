import { percentile, sampleGrey, type GreyImage, type Point } from './grey-image'
import { fitAffine, fitHomography, project, type Homography } from './homography'
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

/** A marker's blob as found in the photo: its centroid and second moments (px, px^2); see find-markers.ts. */
export interface MarkerBlob extends Point {
  shape: { xx: number; yy: number; xy: number }
}

/**
 * The marker's own affine transform (page mm to photo px) from its blob: a solid square of side s has the second
 * moments s^2/12 on each axis, so the blob's moments give the square's shape up to a turn, and the turn is the one
 * nearest the page's transform there. Where a curl lifts a corner towards the lens, its marker is larger and turned
 * against what the transform through the four centres says, and its edges are measured through this (decision 115).
 */
export function blobAffine(toImage: Homography, centre: Point, sizeMm: number, blob: MarkerBlob): Homography | null {
  const c = project(toImage, centre.x, centre.y)
  const px = project(toImage, centre.x + 1, centre.y)
  const py = project(toImage, centre.x, centre.y + 1)
  const j = [px.x - c.x, py.x - c.x, px.y - c.y, py.y - c.y]
  // S = sqrt(12 C / s^2), the symmetric square root of the shape (2x2: (M + sqrt(det) I) / sqrt(trace + 2 sqrt(det))).
  const k = 12 / (sizeMm * sizeMm)
  const m = [blob.shape.xx * k, blob.shape.xy * k, blob.shape.xy * k, blob.shape.yy * k]
  const det = m[0]! * m[3]! - m[1]! * m[2]!
  if (!(det > 0)) return null
  const root = Math.sqrt(det)
  const norm = Math.sqrt(m[0]! + m[3]! + 2 * root)
  const s = [(m[0]! + root) / norm, m[1]! / norm, m[2]! / norm, (m[3]! + root) / norm]
  const sDet = s[0]! * s[3]! - s[1]! * s[2]!
  // The turn nearest S^-1 J: for a 2x2 [[a, b], [c, d]] it is atan2(c - b, a + d).
  const inv = [s[3]! / sDet, -s[1]! / sDet, -s[2]! / sDet, s[0]! / sDet]
  const a = inv[0]! * j[0]! + inv[1]! * j[2]!
  const b = inv[0]! * j[1]! + inv[1]! * j[3]!
  const cc = inv[2]! * j[0]! + inv[3]! * j[2]!
  const d = inv[2]! * j[1]! + inv[3]! * j[3]!
  if (a * d - b * cc <= 0) return null
  const angle = Math.atan2(cc - b, a + d)
  const q = [Math.cos(angle), -Math.sin(angle), Math.sin(angle), Math.cos(angle)]
  const m00 = s[0]! * q[0]! + s[1]! * q[2]!
  const m01 = s[0]! * q[1]! + s[1]! * q[3]!
  const m10 = s[2]! * q[0]! + s[3]! * q[2]!
  const m11 = s[2]! * q[1]! + s[3]! * q[3]!
  return [
    m00,
    m01,
    blob.x - m00 * centre.x - m01 * centre.y,
    m10,
    m11,
    blob.y - m10 * centre.x - m11 * centre.y,
    0,
    0,
    1,
  ]
}

/** Whether a side's edge profiles run past the photo's edge: its paper is not in the photo to measure it against. */
function runsOffPhoto(
  image: GreyImage,
  toImage: Homography,
  centre: Point,
  half: number,
  side: (typeof SIDES)[number],
) {
  const r = half + REACH_MM
  return [ALONG_MM[0]!, ALONG_MM.at(-1)!].some((along) => {
    const p = project(toImage, centre.x + side.nx * r - side.ny * along, centre.y + side.ny * r + side.nx * along)
    return p.x < 0 || p.y < 0 || p.x > image.width - 1 || p.y > image.height - 1
  })
}

/**
 * A marker's corners (page mm, photo px) measured through `toImage`, or null if it is not a solid square. A side
 * whose paper the frame cuts off is left out with its two corners (a curl or a tight frame carries a marker to the
 * photo's edge): the corners between the sides measured still place the page (decision 115).
 */
function markerCorners(image: GreyImage, toImage: Homography, marker: SheetLayout['markers'][number]) {
  const centre = { x: marker.x_mm, y: marker.y_mm }
  const half = marker.size_mm / 2
  if (!isSolid(image, toImage, centre, half)) return null
  const tolerance = Math.max(1, 0.25 * scaleAt(toImage, centre.x, centre.y))
  const lines: (Line | null)[] = []
  for (const side of SIDES) {
    const line = fitLine(edgePoints(image, toImage, centre, half, side), tolerance)
    if (!line && !runsOffPhoto(image, toImage, centre, half, side)) return null
    lines.push(line)
  }
  const corners: { page: Point; image: Point }[] = []
  for (let i = 0; i < 4; i++) {
    const a = lines[i]
    const b = lines[(i + 1) % 4]
    if (!a || !b) continue
    const corner = intersect(a, b)
    if (!corner) return null
    const sa = SIDES[i]!
    const sb = SIDES[(i + 1) % 4]!
    corners.push({
      page: { x: centre.x + half * (sa.nx + sb.nx), y: centre.y + half * (sa.ny + sb.ny) },
      image: corner,
    })
  }
  return corners.length > 0 ? corners : null
}

/**
 * The transform fitted to the markers' 16 corners; null when a marker is not a solid square: decision 054. A marker
 * the page's transform does not measure is measured again through its own blob's shape (`blobs`, in the layout's
 * order of markers), as a curl bends it (decision 115). With `missing` (a marker the frame cut off), the other three
 * place the page by an affine transform: their corners, 9 mm apart, cannot tell the page's perspective, which the
 * page model then takes from the rings (decision 115, issue 79).
 */
export function refineByMarkerEdges(
  image: GreyImage,
  toImage: Homography,
  layout: SheetLayout,
  blobs?: readonly MarkerBlob[],
  missing: number | null = null,
): RefinedTransform | null {
  const pagePoints: Point[] = []
  const imagePoints: Point[] = []
  for (const [m, marker] of layout.markers.entries()) {
    if (m === missing) continue
    let corners = markerCorners(image, toImage, marker)
    const blob = blobs?.[m]
    if (!corners && blob) {
      const own = blobAffine(toImage, { x: marker.x_mm, y: marker.y_mm }, marker.size_mm, blob)
      if (own) corners = markerCorners(image, own, marker)
    }
    if (!corners) return null
    for (const { page, image: at } of corners) {
      pagePoints.push(page)
      imagePoints.push(at)
    }
  }
  const fitted = missing === null ? fitHomography(pagePoints, imagePoints) : fitAffine(pagePoints, imagePoints)
  if (!fitted) return null
  let residualMm = 0
  pagePoints.forEach((page, i) => {
    const p = project(fitted, page.x, page.y)
    const distance = Math.hypot(p.x - imagePoints[i]!.x, p.y - imagePoints[i]!.y) / scaleAt(fitted, page.x, page.y)
    residualMm = Math.max(residualMm, distance)
  })
  return { toImage: fitted, residualMm, corners: pagePoints.map((page, i) => ({ page, image: imagePoints[i]! })) }
}
