import { createHash } from 'node:crypto'
import { pictureLimits } from '@quiz/contracts'
import { decodeRaster, isDecodeRefusal } from '../lib/decode-gate'
import { reencodeRaster } from '../lib/raster-images'

export interface EncodedPicture {
  hash: string
  data: Buffer
  width: number
  height: number
  pixelsHash: string
  // Set when these could be a stored picture come back losslessly (the export's PNG): the bank keeps the stored one.
  sourcePixelsHash: string | null
}

async function pixelsHash(image: Buffer): Promise<string | null> {
  const hash = await decodeRaster(
    image,
    { maxPixels: pictureLimits.pixels, formats: ['jpeg', 'png', 'webp', 'gif'] },
    async (pipeline) => {
      const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true })
      return createHash('sha256').update(`${info.width}x${info.height}x${info.channels}:`).update(data).digest('hex')
    },
  )
  return isDecodeRefusal(hash) ? null : hash
}

/** `too_costly`: a decode the gate refused for its scans or its time (lib/decode-gate.ts). */
export type PictureRefusal = 'not_a_picture' | 'too_large' | 'too_many_pixels' | 'too_costly'

// Tuned on bench/pictures.mjs's scanned diagram: docs/performance.md, "Pictures in questions".
const ENCODING = { quality: 70, effort: 2, smoothShrunk: 0.7, smartSubsample: false }

export async function encodePicture(bytes: Buffer): Promise<EncodedPicture | PictureRefusal> {
  if (bytes.length > pictureLimits.bytes) return 'too_large'
  const result = await reencodeRaster(bytes, {
    maxPixels: pictureLimits.pixels,
    maxSide: pictureLimits.maxSide,
    ...ENCODING,
  })
  if (result === 'not_an_image') return 'not_a_picture'
  if (typeof result === 'string') return result
  const stored = await pixelsHash(result.data)
  const source = result.unchanged ? await pixelsHash(bytes) : null
  if (stored === null) return 'too_costly'
  const { unchanged: _unchanged, ...picture } = result
  return {
    ...picture,
    hash: createHash('sha256').update(result.data).digest('hex'),
    pixelsHash: stored,
    sourcePixelsHash: source,
  }
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[^;,]*)*);base64,/i

// An oversized picture is known from the base64's length, before decoding; the declared type is ignored.
export function decodeDataUrl(value: string): Buffer | PictureRefusal {
  const header = DATA_URL.exec(value)
  if (!header) return 'not_a_picture'
  // Whitespace out first: allowing it inside and after the padding backtracks quadratically on a long run of spaces.
  const payload = value.slice(header[0].length).replace(/\s+/g, '')
  if (Math.floor((payload.length * 3) / 4) > pictureLimits.bytes + 2) return 'too_large'
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) return 'not_a_picture'
  const bytes = Buffer.from(payload, 'base64')
  if (bytes.length > pictureLimits.bytes) return 'too_large'
  return bytes
}
