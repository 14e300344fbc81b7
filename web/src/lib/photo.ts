// Photos shrunk on the phone before they are sent: a phone's photo is 12-50 megapixels and several MB, while the
// server keeps at most a few thousand pixels on the long side (a written answer's page 2,200, an answer sheet for
// the reader 3,000). Sending more only costs the learner or the institute mobile data, and the server reading time.
// One module for the written answer's pages and the sittings' scans (docs/decisions/092).

/** The JPEG quality of a shrunk photo: handwriting and bubbles' edges stay sharp, the file a tenth of the original. */
export const PHOTO_QUALITY = 0.85

export interface Size {
  width: number
  height: number
}

/** The size a photo of `width` x `height` is drawn at: its long side at most `longSide`, the shape kept, never enlarged. */
export function fittedSize(width: number, height: number, longSide: number): Size {
  const scale = Math.min(1, longSide / Math.max(width, height))
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }
}

/** `source` drawn at `size` as a JPEG at PHOTO_QUALITY; null when the browser has no canvas to draw it on. */
export function drawJpeg(source: CanvasImageSource, size: Size): Promise<Blob | null> {
  const canvas = document.createElement('canvas')
  canvas.width = size.width
  canvas.height = size.height
  const context = canvas.getContext('2d')
  if (!context) return Promise.resolve(null)
  context.imageSmoothingQuality = 'high'
  context.drawImage(source, 0, 0, size.width, size.height)
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', PHOTO_QUALITY))
}

export interface ShrinkOptions {
  /** The long side, in pixels, a larger photo is brought down to. */
  longSide: number
  /**
   * Whether a photo that already fits is drawn again too: upright from its EXIF orientation, a JPEG without metadata
   * (a learner's page, whose place and device stay on the phone). Otherwise it goes as it is (a scanner's sheet).
   */
  redrawSmaller?: boolean
}

/**
 * The photo upright from its EXIF orientation (createImageBitmap's `from-image`), at most `longSide` on its long
 * side, as a JPEG. A photo that fits goes as it is unless `redrawSmaller`; one the browser cannot decode (HEIC on
 * some phones), or with no canvas to draw on, goes as it is, and the server says whether it can read it.
 */
export async function shrinkPhoto(photo: Blob, { longSide, redrawSmaller = false }: ShrinkOptions): Promise<Blob> {
  if (typeof createImageBitmap !== 'function') return photo
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(photo, { imageOrientation: 'from-image' })
  } catch {
    return photo
  }
  try {
    if (!redrawSmaller && Math.max(bitmap.width, bitmap.height) <= longSide) return photo
    return (await drawJpeg(bitmap, fittedSize(bitmap.width, bitmap.height, longSide))) ?? photo
  } finally {
    bitmap.close()
  }
}

/** Shrinks photos one after another: a cheap phone holds one 12-megapixel bitmap in memory at a time. */
export async function shrinkPhotos(photos: readonly Blob[], options: ShrinkOptions): Promise<Blob[]> {
  const shrunk: Blob[] = []
  for (const photo of photos) shrunk.push(await shrinkPhoto(photo, options))
  return shrunk
}

/**
 * A photo's size in pixels, so its place on the page is kept before it is drawn and a part of it can be shown
 * enlarged; null when the browser cannot decode it off screen.
 */
export async function photoSize(photo: Blob): Promise<Size | null> {
  if (typeof createImageBitmap !== 'function') return null
  try {
    const bitmap = await createImageBitmap(photo)
    const size = { width: bitmap.width, height: bitmap.height }
    bitmap.close()
    return size
  } catch {
    return null
  }
}
