import { writtenAnswerLimits } from '@quiz/contracts'
import { decodeRaster } from '../lib/decode-gate'
import { asKeptPage, type KeptPage } from '../written/paper-answers.service'
import type { BookletPageReading } from './reader/read-booklet-page'
import { notAPhoto } from './scan-photo'

// A booklet page's two images: the whole photo for the admin, the part without name or code for markers (075, 089).

/** Our own kept JPEG, read again to cut the marked part from it. */
const keptRules = {
  maxPixels: writtenAnswerLimits.keptSide * writtenAnswerLimits.keptSide,
  formats: ['jpeg'],
} as const

/** A point of the cut (w x h) once turned clockwise by `turn` degrees (sharp turns clockwise). */
function turned(x: number, y: number, w: number, h: number, turn: number) {
  if (turn === 90) return [h - y, x]
  if (turn === 180) return [w - x, h - y]
  if (turn === 270) return [y, w - x]
  return [x, y]
}

/** The kept photo cut to the marked region, white outside it, upright: no name, roll or code (decision 089). */
export async function answerPageImage(kept: KeptPage, region: BookletPageReading['answerRegion']): Promise<KeptPage> {
  const { width, height } = kept
  const corners = region.corners.map((p) => ({ x: p.x * width, y: p.y * height }))
  const clamp = (value: number, max: number) => Math.min(max, Math.max(0, value))
  const left = Math.floor(clamp(Math.min(...corners.map((p) => p.x)), width - 1))
  const top = Math.floor(clamp(Math.min(...corners.map((p) => p.y)), height - 1))
  const cutWidth = Math.max(1, Math.ceil(clamp(Math.max(...corners.map((p) => p.x)), width)) - left)
  const cutHeight = Math.max(1, Math.ceil(clamp(Math.max(...corners.map((p) => p.y)), height)) - top)
  const turn = (360 - region.turn) % 360
  const [outWidth, outHeight] = turn % 180 === 0 ? [cutWidth, cutHeight] : [cutHeight, cutWidth]
  const inside = corners.map((p) => turned(p.x - left, p.y - top, cutWidth, cutHeight, turn) as [number, number])
  // Composite comes last in sharp's pipeline, after the cut and the turn: the mask is drawn in the turned frame.
  const mask = outsideMask(inside, outWidth, outHeight)
  const cut = await decodeRaster(kept.data, keptRules, (image) =>
    image
      .extract({ left, top, width: cutWidth, height: cutHeight })
      .rotate(turn)
      .composite([{ input: mask, raw: { width: outWidth, height: outHeight, channels: 4 }, left: 0, top: 0 }])
      .jpeg({ quality: 80 })
      .toBuffer({ resolveWithObject: true }),
  )
  if (typeof cut === 'string') throw notAPhoto()
  return asKeptPage(cut.data, cut.info.width, cut.info.height)
}

/** White, opaque RGBA pixels outside the polygon `inside` and transparent within it (each row's crossings, filled). */
function outsideMask(inside: readonly [number, number][], width: number, height: number): Buffer {
  const mask = Buffer.alloc(width * height * 4, 255)
  for (let y = 0; y < height; y++) {
    const row = y + 0.5
    const crossings: number[] = []
    for (let i = 0; i < inside.length; i++) {
      const [x1, y1] = inside[i]!
      const [x2, y2] = inside[(i + 1) % inside.length]!
      if (y1 <= row !== y2 <= row) crossings.push(x1 + ((row - y1) / (y2 - y1)) * (x2 - x1))
    }
    crossings.sort((a, b) => a - b)
    for (let c = 0; c + 1 < crossings.length; c += 2) {
      const from = Math.max(0, Math.ceil(crossings[c]! - 0.5))
      const to = Math.min(width, Math.ceil(crossings[c + 1]! - 0.5))
      for (let x = from; x < to; x++) mask[(y * width + x) * 4 + 3] = 0
    }
  }
  return mask
}
