import sharp from 'sharp'

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif'])

export type RasterRefusal = 'not_an_image' | 'too_many_pixels'

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
}

// The format is decided by content, and a canvas over `maxPixels` refused from its header before decoding (a
// decompression bomb). Written fresh as WebP with no metadata: nothing of a polyglot file is left.
export async function reencodeRaster(
  input: Buffer,
  { maxPixels, maxSide, quality, effort = 4, smoothShrunk, smartSubsample = true }: ReencodeOptions,
): Promise<Reencoded | RasterRefusal> {
  let metadata: sharp.Metadata
  try {
    // Only the header: sharp's own limit would call a declared 60,000 x 60,000 canvas unreadable, not too large.
    metadata = await sharp(input, { limitInputPixels: false }).metadata()
  } catch {
    return 'not_an_image'
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) return 'not_an_image'
  if (!metadata.width || !metadata.height) return 'not_an_image'
  if (metadata.width * metadata.height > maxPixels) return 'too_many_pixels'
  const shrunk = Math.max(metadata.width, metadata.height) > maxSide
  try {
    let pipeline = sharp(input, { limitInputPixels: maxPixels, failOn: 'error' })
      .rotate()
      .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
    if (shrunk && smoothShrunk !== undefined) pipeline = pipeline.blur(smoothShrunk)
    const { data, info } = await pipeline
      .webp({ quality, effort, smartSubsample })
      .toBuffer({ resolveWithObject: true })
    return { data, width: info.width, height: info.height }
  } catch {
    return 'not_an_image'
  }
}
