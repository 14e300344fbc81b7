import type { CSSProperties } from 'react'
import type { ScanBox } from './sittings.api'

/** A part of the photo, as fractions of its width and height from its top left. */
export type Area = Pick<ScanBox, 'x' | 'y' | 'width' | 'height'>

const WHOLE: Area = { x: 0, y: 0, width: 1, height: 1 }

/** Paper shown around a region, as a share of the photo: about a row of the sheet above and below a question. */
const CONTEXT = 0.025

const percent = (value: number) => `${Number((value * 100).toFixed(3))}%`

/** `box` placed over `frame` (both fractions of the photo) in percentages of the frame, so it scales with it. */
export function placeIn(box: Area, frame: Area = WHOLE): CSSProperties {
  return {
    left: percent((box.x - frame.x) / frame.width),
    top: percent((box.y - frame.y) / frame.height),
    width: percent(box.width / frame.width),
    height: percent(box.height / frame.height),
  }
}

/** The part of the photo a flag's close-up shows: its region with a little of the sheet around, kept in the photo. */
export function cropAround(box: Area): Area {
  const pad = Math.min(CONTEXT, Math.max(box.height, 0.005))
  const x = Math.max(0, box.x - pad)
  const y = Math.max(0, box.y - pad)
  const right = Math.min(1, box.x + box.width + pad)
  const bottom = Math.min(1, box.y + box.height + pad)
  return { x, y, width: right - x, height: bottom - y }
}

/**
 * A close-up of `crop`: the window's shape is the crop's in pixels, stood upright (a sheet photographed sideways or
 * upside down is turned back by `turn`), at most `maxHeightRem` high; inside it a stage the crop's shape, turned, and
 * on the stage the photo scaled and moved so only the crop shows.
 */
export function closeUp(
  crop: Area,
  size: { width: number; height: number },
  maxHeightRem: number,
  turn: ScanBox['turn'] = 0,
) {
  const cropWidth = crop.width * size.width
  const cropHeight = crop.height * size.height
  const sideways = turn % 180 !== 0
  const [frameWidth, frameHeight] = sideways ? [cropHeight, cropWidth] : [cropWidth, cropHeight]
  const frame: CSSProperties = {
    aspectRatio: `${Number(frameWidth.toFixed(1))} / ${Number(frameHeight.toFixed(1))}`,
    width: `min(100%, ${Number(((maxHeightRem * frameWidth) / frameHeight).toFixed(2))}rem)`,
  }
  const stage: CSSProperties = {
    width: percent(cropWidth / frameWidth),
    height: percent(cropHeight / frameHeight),
    transform: turn === 0 ? 'translate(-50%, -50%)' : `translate(-50%, -50%) rotate(${-turn}deg)`,
  }
  const photo: CSSProperties = {
    left: percent(-crop.x / crop.width),
    top: percent(-crop.y / crop.height),
    width: percent(1 / crop.width),
    height: percent(1 / crop.height),
  }
  return { frame, stage, photo }
}
