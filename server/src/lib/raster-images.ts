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
  unchanged: boolean
}

// Format by content, bombs refused from the header (lib/decode-gate.ts); re-encoded WebP: nothing of a polyglot stays.
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
