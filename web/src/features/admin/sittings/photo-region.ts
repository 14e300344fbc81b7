import type { CSSProperties } from 'react'
import type { ScanBox } from './sittings.api'

const WHOLE: ScanBox = { x: 0, y: 0, width: 1, height: 1 }

/** Paper shown around a region, as a share of the photo: about a row of the sheet above and below a question. */
const CONTEXT = 0.025

const percent = (value: number) => `${Number((value * 100).toFixed(3))}%`

/** `box` placed over `frame` (both fractions of the photo) in percentages of the frame, so it scales with it. */
export function placeIn(box: ScanBox, frame: ScanBox = WHOLE): CSSProperties {
  return {
    left: percent((box.x - frame.x) / frame.width),
    top: percent((box.y - frame.y) / frame.height),
    width: percent(box.width / frame.width),
    height: percent(box.height / frame.height),
  }
}

/** The part of the photo a flag's close-up shows: its region with a little of the sheet around, kept in the photo. */
export function cropAround(box: ScanBox): ScanBox {
  const pad = Math.min(CONTEXT, Math.max(box.height, 0.005))
  const x = Math.max(0, box.x - pad)
  const y = Math.max(0, box.y - pad)
  const right = Math.min(1, box.x + box.width + pad)
  const bottom = Math.min(1, box.y + box.height + pad)
  return { x, y, width: right - x, height: bottom - y }
}

/**
 * The photo scaled and moved inside a close-up of `crop` so only that part shows; the close-up's own shape is the
 * crop's in pixels, at most `maxHeightRem` high.
 */
export function closeUp(crop: ScanBox, size: { width: number; height: number }, maxHeightRem: number) {
  const ratio = (crop.width * size.width) / (crop.height * size.height)
  const frame: CSSProperties = {
    aspectRatio: `${Number((crop.width * size.width).toFixed(1))} / ${Number((crop.height * size.height).toFixed(1))}`,
    width: `min(100%, ${Number((maxHeightRem * ratio).toFixed(2))}rem)`,
  }
  const photo: CSSProperties = {
    left: percent(-crop.x / crop.width),
    top: percent(-crop.y / crop.height),
    width: percent(1 / crop.width),
    height: percent(1 / crop.height),
  }
  return { frame, photo }
}
