import { sampleGrey, type GreyImage, type Point } from './grey-image'
import { MARKER_SIZE_MM, PAGE, MARKER_INSET_MM } from '../sheet/sheet-layout'

/** A dark blob: its centroid, its area (px) and its second moments (px^2), which give its shape (decision 115). */
export interface Blob extends Point {
  area: number
  shape: { xx: number; yy: number; xy: number }
}

const SPAN_X_MM = PAGE.width_mm - 2 * MARKER_INSET_MM
const SPAN_Y_MM = PAGE.height_mm - 2 * MARKER_INSET_MM

/** Pixels darker than their neighbourhood: below 75 % of the mean of a window an eighth of the image across. */
export function darkMask(image: GreyImage): Uint8Array {
  const { data, width, height } = image
  const stride = width + 1
  const integral = new Float64Array(stride * (height + 1))
  for (let y = 0; y < height; y++) {
    let rowSum = 0
    const row = y * width
    const above = y * stride + 1
    const here = (y + 1) * stride + 1
    for (let x = 0; x < width; x++) {
      rowSum += data[row + x]!
      integral[here + x] = integral[above + x]! + rowSum
    }
  }
  const half = Math.max(8, Math.round(Math.max(width, height) / 16))
  const mask = new Uint8Array(width * height)
  // Every pixel's window: the rows' offsets are taken once a row; each mean is the same division as before. A mean
  // is at most 255, so a pixel of 192 or more is never under 75 % of it: its window is not summed.
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - half)
    const y1 = Math.min(height, y + half + 1)
    const top = y0 * stride
    const bottom = y1 * stride
    const rows = y1 - y0
    const row = y * width
    for (let x = 0; x < width; x++) {
      const grey = data[row + x]!
      if (grey >= 192) continue
      const x0 = x > half ? x - half : 0
      const x1 = x + half + 1 < width ? x + half + 1 : width
      const sum = integral[bottom + x1]! - integral[top + x1]! - integral[bottom + x0]! + integral[top + x0]!
      const mean = sum / ((x1 - x0) * rows)
      if (grey < mean * 0.75) mask[row + x] = 1
    }
  }
  return mask
}

/**
 * Connected dark regions (4-connected, union-find) that are solid and roughly square: area, centroid. The regions
 * are joined run by run (a row's stretch of dark pixels is one region's), not pixel by pixel, and listed by their
 * first pixel in raster order, as labelling pixel by pixel lists them; every sum is of whole numbers far below 2^53,
 * so added a run at a time it is exactly the pixel-by-pixel sum.
 */
export function solidBlobs(mask: Uint8Array, width: number, height: number): Blob[] {
  const starts: number[] = []
  const ends: number[] = []
  const rows: number[] = []
  const parent: number[] = []
  const find = (a: number) => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]!]!
      a = parent[a]!
    }
    return a
  }
  let previousFirst = 0
  let previousEnd = 0
  for (let y = 0; y < height; y++) {
    const row = y * width
    const first = starts.length
    let above = previousFirst
    let x = 0
    while (x < width) {
      if (!mask[row + x]) {
        x++
        continue
      }
      const start = x
      while (x < width && mask[row + x]) x++
      const run = starts.length
      starts.push(start)
      ends.push(x)
      rows.push(y)
      parent.push(run)
      // The runs of the row above that share a column with this one are the same region: the earlier run (the
      // region's first pixel in raster order) stays its root.
      while (above < previousEnd && ends[above]! <= start) above++
      for (let q = above; q < previousEnd && starts[q]! < x; q++) {
        const a = find(run)
        const b = find(q)
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b)
      }
    }
    previousFirst = first
    previousEnd = starts.length
  }
  const count = starts.length
  const n = new Float64Array(count)
  const sx = new Float64Array(count)
  const sy = new Float64Array(count)
  const sxx = new Float64Array(count)
  const syy = new Float64Array(count)
  const sxy = new Float64Array(count)
  const minX = new Int32Array(count).fill(width)
  const maxX = new Int32Array(count).fill(-1)
  const minY = new Int32Array(count).fill(height)
  const maxY = new Int32Array(count).fill(-1)
  const squares = (m: number) => (m * (m + 1) * (2 * m + 1)) / 6
  for (let run = 0; run < count; run++) {
    const r = find(run)
    const x = starts[run]!
    const last = ends[run]! - 1
    const y = rows[run]!
    const length = last - x + 1
    const xs = ((x + last) * length) / 2
    n[r] = n[r]! + length
    sx[r] = sx[r]! + xs
    sy[r] = sy[r]! + y * length
    sxx[r] = sxx[r]! + (squares(last) - squares(x - 1))
    syy[r] = syy[r]! + y * y * length
    sxy[r] = sxy[r]! + y * xs
    if (x < minX[r]!) minX[r] = x
    if (last > maxX[r]!) maxX[r] = last
    if (y < minY[r]!) minY[r] = y
    if (y > maxY[r]!) maxY[r] = y
  }
  const minArea = width * height * 0.00008
  const maxArea = width * height * 0.01
  const blobs: Blob[] = []
  for (let r = 0; r < count; r++) {
    const area = n[r]!
    if (area < minArea || area > maxArea) continue
    const cx = sx[r]! / area
    const cy = sy[r]! / area
    const vxx = sxx[r]! / area - cx * cx
    const vyy = syy[r]! / area - cy * cy
    const vxy = sxy[r]! / area - cx * cy
    const det = vxx * vyy - vxy * vxy
    if (det <= 0) continue
    // A filled square's variance is s^2/12 on each axis: this ratio is near 1 for one, even tilted.
    const solidity = area / (12 * Math.sqrt(det))
    const trace = vxx + vyy
    const spread = Math.sqrt(Math.max(0, (trace * trace) / 4 - det))
    const elongation = (trace / 2 + spread) / Math.max(1e-9, trace / 2 - spread)
    const boxFill = area / ((maxX[r]! - minX[r]! + 1) * (maxY[r]! - minY[r]! + 1))
    if (solidity < 0.85 || solidity > 1.12 || elongation > 4 || boxFill < 0.45) continue
    blobs.push({ x: cx, y: cy, area, shape: { xx: vxx, yy: vyy, xy: vxy } })
  }
  return blobs
}

const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)

/** The four points in clockwise order on the image (y down), or null if they do not make a convex quadrilateral. */
function clockwise(points: Blob[]): Blob[] | null {
  const cx = points.reduce((s, p) => s + p.x, 0) / points.length
  const cy = points.reduce((s, p) => s + p.y, 0) / points.length
  const ordered = [...points].sort((a, b) => Math.atan2(a.y - cy, a.x - cx) - Math.atan2(b.y - cy, b.x - cx))
  for (let i = 0; i < 4; i++) if (cross(ordered[i]!, ordered[(i + 1) % 4]!, ordered[(i + 2) % 4]!) <= 0) return null
  return ordered
}

function quadArea(q: Point[]): number {
  let twice = 0
  for (let i = 0; i < 4; i++) twice += q[i]!.x * q[(i + 1) % 4]!.y - q[(i + 1) % 4]!.x * q[i]!.y
  return Math.abs(twice) / 2
}

/** How far four blobs are from being the corner markers (lower is better), or Infinity: decision 054. */
function quadCost(quad: Blob[]): number {
  const area = quadArea(quad)
  const pxPerMm = Math.sqrt(area / (SPAN_X_MM * SPAN_Y_MM))
  const expected = (MARKER_SIZE_MM * pxPerMm) ** 2
  let cost = 0
  for (const blob of quad) {
    const ratio = Math.log(blob.area / expected)
    if (Math.abs(ratio) > Math.log(2.5)) return Infinity
    cost += Math.abs(ratio)
  }
  const side = (i: number) => Math.hypot(quad[(i + 1) % 4]!.x - quad[i]!.x, quad[(i + 1) % 4]!.y - quad[i]!.y)
  const sides = [0, 1, 2, 3].map(side)
  for (const [a, b] of [
    [sides[0]!, sides[2]!],
    [sides[1]!, sides[3]!],
  ] as const)
    if (Math.max(a, b) / Math.min(a, b) > 1.8) return Infinity
  const aspect = (sides[0]! + sides[2]!) / (sides[1]! + sides[3]!)
  const pageAspect = SPAN_Y_MM / SPAN_X_MM
  const aspectError = Math.min(Math.abs(Math.log(aspect / pageAspect)), Math.abs(Math.log(aspect * pageAspect)))
  if (aspectError > Math.log(1.8)) return Infinity
  return cost + aspectError
}

/** The solid dark squares on paper that could be markers, largest first. */
export function markerBlobs(image: GreyImage): Blob[] {
  return solidBlobs(darkMask(image), image.width, image.height)
    .filter((blob) => isOnPaper(image, blob))
    .sort((a, b) => b.area - a.area)
    .slice(0, 16)
}

/** Quadrilaterals of four blobs that could be the corner markers, largest first: decision 054 "In the code". */
export function findMarkerQuads(image: GreyImage, limit = 20, blobs = markerBlobs(image)): Blob[][] {
  const quads: { quad: Blob[]; area: number }[] = []
  for (let a = 0; a < blobs.length; a++)
    for (let b = a + 1; b < blobs.length; b++)
      for (let c = b + 1; c < blobs.length; c++)
        for (let d = c + 1; d < blobs.length; d++) {
          const quad = clockwise([blobs[a]!, blobs[b]!, blobs[c]!, blobs[d]!])
          if (!quad || quadCost(quad) === Infinity) continue
          quads.push({ quad, area: quadArea(quad) })
        }
  return quads
    .sort((p, q) => q.area - p.area)
    .slice(0, limit)
    .map(({ quad }) => quad)
}

/** Whether a blob is dark on light all around, as a marker on its paper margin is. */
function isOnPaper(image: GreyImage, blob: Blob): boolean {
  const radius = Math.sqrt(blob.area) * 0.95
  const inside = sampleGrey(image, blob.x, blob.y)
  let darker = 0
  let seen = 0
  for (let step = 0; step < 24; step++) {
    const angle = (step / 24) * 2 * Math.PI
    const x = blob.x + radius * Math.cos(angle)
    const y = blob.y + radius * Math.sin(angle)
    // Past the frame's edge is not seen, not dark: a marker at a tight frame's edge is measured on its other sides.
    if (x < 0 || y < 0 || x > image.width - 1 || y > image.height - 1) continue
    seen++
    if (sampleGrey(image, x, y) < inside * 1.6 + 8) darker++
  }
  return seen >= 12 && darker <= 3
}

/** Three markers found and where the parallelogram through them puts the fourth, cut off by the frame. */
export interface MarkerTriple {
  /** The four in clockwise order, the stand-in among them. */
  quad: Blob[]
  /** A blob where the fourth marker would be, the three's mean size and shape: it is not measured (issue 79). */
  standIn: Blob
}

/**
 * Three blobs that could be three of the corner markers, the fourth cut off by the photo's frame (a curl lifts an
 * edge and carries its marker out of the photo), each with a stand-in blob where the parallelogram through the three
 * puts the fourth (a perspective's or a curl's hundreds of pixels off: only a rough start); the likeliest markers
 * first, by their sizes and the page's shape. Tried only when no four blobs place the page (decision 115, issue 79).
 */
export function findMarkerTriples(blobs: readonly Blob[], limit = 12): MarkerTriple[] {
  const triples: { quad: Blob[]; standIn: Blob; cost: number }[] = []
  for (let a = 0; a < blobs.length; a++)
    for (let b = a + 1; b < blobs.length; b++)
      for (let c = b + 1; c < blobs.length; c++) {
        const three = [blobs[a]!, blobs[b]!, blobs[c]!]
        for (let corner = 0; corner < 3; corner++) {
          const [p, q, r] = [three[(corner + 1) % 3]!, three[corner]!, three[(corner + 2) % 3]!]
          const mean = (f: (blob: Blob) => number) => (f(p) + f(q) + f(r)) / 3
          const standIn: Blob = {
            x: p.x + r.x - q.x,
            y: p.y + r.y - q.y,
            area: mean((s) => s.area),
            shape: { xx: mean((s) => s.shape.xx), yy: mean((s) => s.shape.yy), xy: mean((s) => s.shape.xy) },
          }
          const quad = clockwise([p, q, r, standIn])
          const cost = quad ? quadCost(quad) : Infinity
          if (cost < Infinity) triples.push({ quad: quad!, standIn, cost })
        }
      }
  return triples
    .sort((p, q) => p.cost - q.cost)
    .slice(0, limit)
    .map(({ quad, standIn }) => ({ quad, standIn }))
}
