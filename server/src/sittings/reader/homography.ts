import type { Point } from './grey-image'

/** A 3x3 projective transform, row-major, h[8] = 1. */
export type Homography = readonly number[]

/**
 * The homography taking each `from[i]` to `to[i]` (four point pairs, no three collinear): the eight unknowns
 * solved by Gaussian elimination with partial pivoting. Null when the points are degenerate.
 */
export function solveHomography(from: readonly Point[], to: readonly Point[]): Homography | null {
  if (from.length !== 4 || to.length !== 4) return null
  const rows: number[][] = []
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i]!
    const { x: u, y: v } = to[i]!
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u])
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v])
  }
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
  const h = rows.map((row, i) => row[8]! / row[i]!)
  return h.every(Number.isFinite) ? [...h, 1] : null
}

export function project(h: Homography, x: number, y: number): Point {
  const w = h[6]! * x + h[7]! * y + h[8]!
  return { x: (h[0]! * x + h[1]! * y + h[2]!) / w, y: (h[3]! * x + h[4]! * y + h[5]!) / w }
}
