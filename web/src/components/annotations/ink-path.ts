import { getStroke } from 'perfect-freehand'

/**
 * An ink stroke's outline as an SVG path, in the page's pixels: perfect-freehand turns the pen's points into a
 * smooth, pressure-free line (a marker's mouse or finger has no pressure; `simulatePressure: false` keeps the
 * width even, as a red pen's).
 */
export function inkPath(points: readonly (readonly [number, number])[], size: number): string {
  const outline = getStroke(
    points.map(([x, y]) => [x, y]),
    { size, thinning: 0, smoothing: 0.5, streamline: 0.4, simulatePressure: false, last: true },
  )
  if (outline.length === 0) return ''
  // A closed quadratic path through the outline's midpoints (the library's README recipe).
  const [first, ...rest] = outline
  let d = `M${first![0].toFixed(1)},${first![1].toFixed(1)}Q`
  const all = [first!, ...rest, first!]
  for (let index = 0; index < all.length - 1; index++) {
    const [x0, y0] = all[index]!
    const [x1, y1] = all[index + 1]!
    d += `${x0.toFixed(1)},${y0.toFixed(1)} ${((x0 + x1) / 2).toFixed(1)},${((y0 + y1) / 2).toFixed(1)} `
  }
  return `${d}Z`
}
