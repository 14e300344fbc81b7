import { describe, expect, it } from 'vitest'
import { fitHomography, project, solveHomography } from './homography'

const page = [
  { x: 11, y: 11 },
  { x: 199, y: 11 },
  { x: 199, y: 286 },
  { x: 11, y: 286 },
]
const photo = [
  { x: 212.4, y: 140.2 },
  { x: 1391.7, y: 95.1 },
  { x: 1466.3, y: 1702.8 },
  { x: 130.9, y: 1650.4 },
]

describe('fitHomography', () => {
  it('recovers a perspective transform from many points, each off by a fraction of a pixel', () => {
    const truth = solveHomography(page, photo)!
    const from = Array.from({ length: 16 }, (_, i) => ({
      x: 11 + (i % 4) * 60 + (i % 3),
      y: 11 + Math.floor(i / 4) * 90,
    }))
    const to = from.map((p, i) => {
      const q = project(truth, p.x, p.y)
      return { x: q.x + ((i * 37) % 7) / 20 - 0.15, y: q.y + ((i * 53) % 5) / 15 - 0.13 }
    })
    const fitted = fitHomography(from, to)!
    for (const p of [...page, { x: 105, y: 148 }]) {
      const a = project(truth, p.x, p.y)
      const b = project(fitted, p.x, p.y)
      expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeLessThan(0.5)
    }
  })

  it('gives null for points on one line', () => {
    const line = [0, 1, 2, 3, 4].map((i) => ({ x: i, y: 2 * i }))
    expect(fitHomography(line, line)).toBeNull()
  })
})
