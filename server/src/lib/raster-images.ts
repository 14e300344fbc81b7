import sharp from 'sharp'

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif'])

export type RasterRefusal = 'not_an_image' | 'too_many_pixels'

export interface ReencodeOptions {
  maxPixels: number
  maxSide: number
  /** WebP quality, 1..100. */
  quality: number
  /** WebP effort, 0..6: higher is smaller and slower (4, libwebp's default, when absent). */
  effort?: number
  /** Gaussian sigma applied after shrinking a picture larger than `maxSide` (none when absent; see the caller). */
  smoothShrunk?: number
  /** libwebp's sharper colour edges (true when absent); it about doubles the encoding's CPU. */
  smartSubsample?: boolean
}

export interface Reencoded {
  data: Buffer
  width: number
  height: number
}

/**
 * Decides the format by content (never by name or declared type) and refuses a canvas over `maxPixels` from its
 * header, before anything is decoded (a small file can declare a huge canvas: a decompression bomb). Then
 * re-encodes: turned upright by its EXIF orientation, shrunk to fit `maxSide`, written fresh as WebP with no
 * metadata (sharp drops EXIF, GPS and ICC unless asked to keep them); an animated GIF gives its first frame.
 * Re-encoding leaves nothing of a polyglot file. A truncated or corrupt image is `not_an_image`.
 */
export async function reencodeRaster(
  input: Buffer,
  { maxPixels, maxSide, quality, effort = 4, smoothShrunk, smartSubsample = true }: ReencodeOptions,
): Promise<Reencoded | RasterRefusal> {
  let metadata: sharp.Metadata
  try {
    // Only the header is read here; sharp's own default limit would call a declared 60,000 x 60,000 canvas
    // unreadable rather than too large.
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
