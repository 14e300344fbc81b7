import jsQR from 'jsqr'
import { sampleGrey, type GreyImage } from './grey-image'
import { project, type Homography } from './homography'
import type { SheetLayout } from '../sheet/sheet-layout'

const PX_PER_MM = 6
/** Room around the code's modules: its quiet zone and a margin for a slightly misplaced transform. */
const MARGIN_MM = 6

/**
 * The text of the sheet's QR code, read from the page straightened by `toImage` (page mm -> image px), or null.
 * Only the code's own square is resampled, so jsQR sees a small, upright, evenly scaled picture.
 */
export function decodeSheetQr(image: GreyImage, toImage: Homography, layout: SheetLayout): string | null {
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
  try {
    return jsQR(rgba, side, side, { inversionAttempts: 'dontInvert' })?.data ?? null
  } catch {
    return null
  }
}
