import jsQR from 'jsqr'
import { sampleGrey, type GreyImage, type Point } from './grey-image'
import { project, type Homography } from './homography'
import type { SheetLayout } from '../sheet/sheet-layout'

const PX_PER_MM = 6
/** Room around the code's modules: its quiet zone and a margin for a slightly misplaced transform. */
const MARGIN_MM = 6

export interface SheetQr {
  payload: string
  /** Where jsQR found the finder patterns' centres, in page mm: they check the page's place and turn. */
  finders: Point[]
  /** The finder centres where the layout prints them, in the same order. */
  expectedFinders: Point[]
}

/** The sheet's QR code read from the page straightened by `toImage` (page mm -> image px), or null. */
export function decodeSheetQr(image: GreyImage, toImage: Homography, layout: SheetLayout): SheetQr | null {
  const sideMm = layout.qr.size_mm + 2 * MARGIN_MM
  const side = Math.round(sideMm * PX_PER_MM)
  const left = layout.qr.x_mm - sideMm / 2
  const top = layout.qr.y_mm - sideMm / 2
  const rgba = new Uint8ClampedArray(side * side * 4)
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      const p = project(toImage, left + (x + 0.5) / PX_PER_MM, top + (y + 0.5) / PX_PER_MM)
      const grey = sampleGrey(image, p.x, p.y)
      const i = (y * side + x) * 4
      rgba[i] = rgba[i + 1] = rgba[i + 2] = grey
      rgba[i + 3] = 255
    }
  let code: ReturnType<typeof jsQR>
  try {
    code = jsQR(rgba, side, side, { inversionAttempts: 'dontInvert' })
  } catch {
    return null
  }
  if (!code) return null
  const toMm = (p: Point) => ({ x: left + p.x / PX_PER_MM, y: top + p.y / PX_PER_MM })
  const modules = 17 + 4 * code.version
  const module = layout.qr.size_mm / modules
  const near = layout.qr.size_mm / 2 - 3.5 * module
  return {
    payload: code.data,
    finders: [
      code.location.topLeftFinderPattern,
      code.location.topRightFinderPattern,
      code.location.bottomLeftFinderPattern,
    ].map(toMm),
    expectedFinders: [
      { x: layout.qr.x_mm - near, y: layout.qr.y_mm - near },
      { x: layout.qr.x_mm + near, y: layout.qr.y_mm - near },
      { x: layout.qr.x_mm - near, y: layout.qr.y_mm + near },
    ],
  }
}
