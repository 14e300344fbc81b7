import { decodeRaster, type DecodeRefusal } from './decode-gate'

const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp', 'gif']

export type RasterRefusal = DecodeRefusal

export interface ReencodeOptions {
  maxPixels: number
  maxSide: number
  quality: number
  effort?: number
  smoothShrunk?: number
  // It about doubles the encoding's CPU.
  smartSubsample?: boolean
}

export interface Reencoded {
  data: Buffer
  width: number
  height: number
  /** The picture as sent kept its size and was upright. */
  unchanged: boolean
}

// The format is decided by content, and a bomb refused from its header before decoding (lib/decode-gate.ts). Written
// fresh as WebP with no metadata: nothing of a polyglot file is left.
export async function reencodeRaster(
  input: Buffer,
  { maxPixels, maxSide, quality, effort = 4, smoothShrunk, smartSubsample = true }: ReencodeOptions,
): Promise<Reencoded | RasterRefusal> {
  return decodeRaster(input, { maxPixels, formats: ACCEPTED_FORMATS }, async (image, metadata) => {
    const shrunk = Math.max(metadata.width!, metadata.height!) > maxSide
    let pipeline = image.rotate().resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
    if (shrunk && smoothShrunk !== undefined) pipeline = pipeline.blur(smoothShrunk)
    const { data, info } = await pipeline
      .webp({ quality, effort, smartSubsample })
      .toBuffer({ resolveWithObject: true })
    const unchanged =
      info.width === metadata.width && info.height === metadata.height && (metadata.orientation ?? 1) === 1
    return { data, width: info.width, height: info.height, unchanged }
  })
}
