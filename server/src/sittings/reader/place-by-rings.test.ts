import { describe, expect, it } from 'vitest'
import { fitAffine, project, solveHomography } from './homography'
import type { ModelControl } from './page-model'
import { ringSeeds } from './place-by-rings'

const centres = [
  { x: 11, y: 11 },
  { x: 199, y: 11 },
  { x: 11, y: 286 },
]
// A flat page seen at a slant: the three markers' affine transform cannot follow it.
const truth = solveHomography(
  [
    { x: 11, y: 11 },
    { x: 199, y: 11 },
    { x: 199, y: 286 },
    { x: 11, y: 286 },
  ],
  [
    { x: 200, y: 150 },
    { x: 1300, y: 100 },
    { x: 1500, y: 1700 },
    { x: 120, y: 1600 },
  ],
)!
const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1]
/** Each marker's corners, where `truth` puts them, as offsets from the identity (page mm = photo px here). */
const controlsAt = (points: { x: number; y: number }[], weight: number): ModelControl[] =>
  points.map((page) => {
    const at = project(truth, page.x, page.y)
    return { page, offset: { x: at.x - page.x, y: at.y - page.y }, weight }
  })
const corners = centres.flatMap((c) =>
  [
    [-4.5, -4.5],
    [4.5, -4.5],
    [4.5, 4.5],
    [-4.5, 4.5],
  ].map(([dx, dy]) => ({ x: c.x + dx!, y: c.y + dy! })),
)

describe('ringSeeds', () => {
  it('grows from the three markers first, then from each two on one edge of the page alone', () => {
    const lifted = controlsAt(centres, 4)
    // The bottom-left marker lifted by a curl: 6 mm off where the flat page would show it, its corners with it.
    lifted[2] = { ...lifted[2]!, offset: { x: lifted[2]!.offset.x + 6, y: lifted[2]!.offset.y + 6 } }
    const liftedCorners = controlsAt(corners, 4).map((c, i) =>
      i >= 8 ? { ...c, offset: { x: c.offset.x + 6, y: c.offset.y + 6 } } : c,
    )
    const seeds = ringSeeds(identity, lifted, liftedCorners)
    expect(seeds.map((s) => s.markers.map((m) => [m.page.x, m.page.y]))).toEqual([
      [
        [11, 11],
        [199, 11],
        [11, 286],
      ],
      [
        [11, 11],
        [199, 11],
      ],
      [
        [11, 11],
        [11, 286],
      ],
    ])
    // The top edge's seed misses the first block under the top markers by less than the three markers' affine
    // transform, which the lifted marker pulls, does.
    const images = liftedCorners.map((c) => ({ x: c.page.x + c.offset.x, y: c.page.y + c.offset.y }))
    const threes = fitAffine(
      liftedCorners.map((c) => c.page),
      images,
    )!
    const miss = (h: readonly number[]) => {
      const seen = project(h, 29, 84)
      const real = project(truth, 29, 84)
      return Math.hypot(seen.x - real.x, seen.y - real.y)
    }
    expect(miss(seeds[1]!.toImage)).toBeLessThan(miss(threes) / 2)
  })
})
