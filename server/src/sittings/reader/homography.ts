import type { Point } from './grey-image'

/** A 3x3 projective transform, row-major, h[8] = 1. */
export type Homography = readonly number[]

/** The homography taking four `from[i]` to `to[i]`, by Gaussian elimination with partial pivoting. */
export function solveHomography(from: readonly Point[], to: readonly Point[]): Homography | null {
  if (from.length !== 4 || to.length !== 4) return null
  const rows: number[][] = []
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!
    const { x: u, y: v } = to[i]!
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u])
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v])
  }
  const h = solveLinear(rows)
  return h ? [...h, 1] : null
}

export function project(h: Homography, x: number, y: number): Point {
  const w = h[6]! * x + h[7]! * y + h[8]!
  return { x: (h[0]! * x + h[1]! * y + h[2]!) / w, y: (h[3]! * x + h[4]! * y + h[5]!) / w }
}

/** Shifts and scales points so their centroid is 0 and their mean distance from it is sqrt(2) (Hartley). */
function normalising(points: readonly Point[]) {
  const cx = points.reduce((s, p) => s + p.x, 0) / points.length
  const cy = points.reduce((s, p) => s + p.y, 0) / points.length
  const spread = points.reduce((s, p) => s + Math.hypot(p.x - cx, p.y - cy), 0) / points.length || 1
  const k = Math.SQRT2 / spread
  return { cx, cy, k }
}

/** The least-squares homography over four or more pairs (normalised DLT); null when degenerate. */
export function fitHomography(from: readonly Point[], to: readonly Point[]): Homography | null {
  if (from.length < 4 || from.length !== to.length) return null
  const a = normalising(from)
  const b = normalising(to)
  const normal = Array.from({ length: 8 }, () => new Array<number>(9).fill(0))
  for (let i = 0; i < from.length; i++) {
    const x = (from[i]!.x - a.cx) * a.k
    const y = (from[i]!.y - a.cy) * a.k
    const u = (to[i]!.x - b.cx) * b.k
    const v = (to[i]!.y - b.cy) * b.k
    for (const row of [
      [x, y, 1, 0, 0, 0, -u * x, -u * y, u],
      [0, 0, 0, x, y, 1, -v * x, -v * y, v],
    ])
      for (let r = 0; r < 8; r++) for (let c = 0; c < 9; c++) normal[r]![c] = normal[r]![c]! + row[r]! * row[c]!
  }
  const n = solveLinear(normal)
  if (!n) return null
  // Undo the normalisations: H = B^-1 * N * A.
  const A = [a.k, 0, -a.k * a.cx, 0, a.k, -a.k * a.cy, 0, 0, 1]
  const Binv = [1 / b.k, 0, b.cx, 0, 1 / b.k, b.cy, 0, 0, 1]
  const h = multiply(Binv, multiply([...n, 1], A))
  const scale = h[8]!
  if (!Number.isFinite(scale) || Math.abs(scale) < 1e-12) return null
  return h.map((value) => value / scale)
}

/**
 * The least-squares affine transform (a homography without perspective) over three or more pairs; null when they
 * are on a line. Three markers found of four fix no perspective: their own corners would guess it wildly (issue 79).
 */
export function fitAffine(from: readonly Point[], to: readonly Point[]): Homography | null {
  if (from.length < 3 || from.length !== to.length) return null
  const a = normalising(from)
  // The normal equations of [x y 1] against u and v, in the normalised page points.
  const m = Array.from({ length: 3 }, () => new Float64Array(5))
  for (let i = 0; i < from.length; i++) {
    const row = [(from[i]!.x - a.cx) * a.k, (from[i]!.y - a.cy) * a.k, 1]
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) m[r]![c] = m[r]![c]! + row[r]! * row[c]!
      m[r]![3] = m[r]![3]! + row[r]! * to[i]!.x
      m[r]![4] = m[r]![4]! + row[r]! * to[i]!.y
    }
  }
  const solution = solveWithTwoSides(m, 3)
  if (!solution) return null
  const [u, v] = solution
  const A = [a.k, 0, -a.k * a.cx, 0, a.k, -a.k * a.cy, 0, 0, 1]
  const h = multiply([u[0]!, u[1]!, u[2]!, v[0]!, v[1]!, v[2]!, 0, 0, 1], A)
  return h.every(Number.isFinite) ? h : null
}

/** Gaussian elimination with partial pivoting on an augmented matrix with two right-hand sides. */
export function solveWithTwoSides(a: Float64Array[], size: number): [Float64Array, Float64Array] | null {
  for (let col = 0; col < size; col++) {
    let pivot = col
    for (let r = col + 1; r < size; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r
    if (Math.abs(a[pivot]![col]!) < 1e-12) return null
    ;[a[col], a[pivot]] = [a[pivot]!, a[col]!]
    const lead = a[col]!
    for (let r = 0; r < size; r++) {
      if (r === col) continue
      const row = a[r]!
      const factor = row[col]! / lead[col]!
      if (factor === 0) continue
      for (let c = col; c < size + 2; c++) row[c] = row[c]! - factor * lead[c]!
    }
  }
  const x = new Float64Array(size)
  const y = new Float64Array(size)
  for (let i = 0; i < size; i++) {
    x[i] = a[i]![size]! / a[i]![i]!
    y[i] = a[i]![size + 1]! / a[i]![i]!
  }
  return x.every(Number.isFinite) && y.every(Number.isFinite) ? [x, y] : null
}

function multiply(p: readonly number[], q: readonly number[]): number[] {
  const out = new Array<number>(9).fill(0)
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++)
      for (let k = 0; k < 3; k++) out[r * 3 + c] = out[r * 3 + c]! + p[r * 3 + k]! * q[k * 3 + c]!
  return out
}

/** Solves an 8x8 system given as rows of 8 coefficients and the right-hand side; null when singular. */
function solveLinear(rows: number[][]): number[] | null {
  for (let col = 0; col < 8; col++) {
    let pivot = col
    for (let r = col + 1; r < 8; r++) if (Math.abs(rows[r]![col]!) > Math.abs(rows[pivot]![col]!)) pivot = r
    if (Math.abs(rows[pivot]![col]!) < 1e-12) return null
    ;[rows[col], rows[pivot]] = [rows[pivot]!, rows[col]!]
    const lead = rows[col]!
    for (let r = 0; r < 8; r++) {
      if (r === col) continue
      const row = rows[r]!
      const factor = row[col]! / lead[col]!
      if (factor === 0) continue
      for (let c = col; c < 9; c++) row[c] = row[c]! - factor * lead[c]!
    }
  }
  const solution = rows.map((row, i) => row[8]! / row[i]!)
  return solution.every(Number.isFinite) ? solution : null
}

/** The inverse transform (image px -> page mm for a page's homography); null when singular. */
export function invertHomography(h: Homography): Homography | null {
  const [a, b, c, d, e, f, g, k, l] = h as [number, number, number, number, number, number, number, number, number]
  const m = [
    e * l - f * k,
    c * k - b * l,
    b * f - c * e,
    f * g - d * l,
    a * l - c * g,
    c * d - a * f,
    d * k - e * g,
    b * g - a * k,
    a * e - b * d,
  ]
  const det = a * m[0]! + b * m[3]! + c * m[6]!
  if (!Number.isFinite(det) || Math.abs(det) < 1e-15 || Math.abs(m[8]!) < 1e-15) return null
  return m.map((value) => value / m[8]!)
}
