import { describe, expect, it } from 'vitest'
import { fitPageModel, modelOffset, modelPoint, regionHomography, type ModelControl } from './page-model'
import { project } from './homography'

const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1]
/** A curl-like bend: points near the top edge pushed down and right, growing with the square of the lift. */
const bend = (x: number, y: number) => {
  const t = Math.max(0, (80 - y) / 80)
  return { x: 3 * t * t, y: 4 * t * t }
}

describe('the page model (decision 115)', () => {
  const controls: ModelControl[] = []
  for (let x = 20; x <= 190; x += 34)
    for (let y = 10; y <= 280; y += 20) controls.push({ page: { x, y }, offset: bend(x, y), weight: 1 })
  const model = fitPageModel(identity, controls, 0.0005)!

  it('follows a smooth bend through the points it was fitted to, and between them', () => {
    for (const [x, y] of [
      [37, 30],
      [100, 55],
      [150, 200],
    ] as const) {
      const d = modelOffset(model, x, y)
      const want = bend(x, y)
      expect(Math.hypot(d.x - want.x, d.y - want.y), `${x},${y}`).toBeLessThan(0.25)
    }
  })

  it('puts a region through one homography that meets the model at its corners', () => {
    const rect = { left: 40, top: 20, right: 60, bottom: 40 }
    const h = regionHomography(model, rect)
    const corner = project(h, rect.right, rect.bottom)
    const want = modelPoint(model, rect.right, rect.bottom)
    expect(Math.hypot(corner.x - want.x, corner.y - want.y)).toBeLessThan(1e-6)
  })

  it('stays flat where every control says flat', () => {
    const flat = fitPageModel(
      identity,
      controls.map((c) => ({ ...c, offset: { x: 0, y: 0 } })),
      0.002,
    )!
    const d = modelOffset(flat, 105, 150)
    expect(Math.hypot(d.x, d.y)).toBeLessThan(1e-6)
  })
})
