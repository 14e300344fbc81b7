import { percentile, sampleGrey, type GreyImage } from './grey-image'
import { project, type Homography } from './homography'
import type { SheetLayout } from '../sheet/sheet-layout'

const STEP_MM = 0.1

/** How sharp the markers' edges are, as a share of the ink-to-paper rise per mm: decision 054 "In the code". */
export function edgeSharpness(image: GreyImage, toImage: Homography, layout: SheetLayout): number {
  const slopes: number[] = []
  for (const marker of layout.markers) {
    const half = marker.size_mm / 2
    for (const [ux, uy] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      const profile: number[] = []
      for (let r = half - 2; r <= half + 2; r += STEP_MM) {
        const p = project(toImage, marker.x_mm + ux * r, marker.y_mm + uy * r)
        profile.push(sampleGrey(image, p.x, p.y))
      }
      const range = Math.max(...profile) - Math.min(...profile)
      if (range < 10) {
        slopes.push(0)
        continue
      }
      let steepest = 0
      for (let i = 3; i < profile.length; i++) steepest = Math.max(steepest, profile[i]! - profile[i - 3]!)
      slopes.push(steepest / (3 * STEP_MM) / range)
    }
  }
  return percentile(slopes, 0.5)
}
