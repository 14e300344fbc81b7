// A phone's photo is 12-50 megapixels and several MB; the sheet reader needs about 3,000 px on the long side, so
// the phone shrinks it before sending (less to upload over a hall's mobile data, and less for the server to read).

/** The JPEG quality of a shrunk photo: the bubbles' edges stay sharp, the file a tenth of the original's size. */
export const PHOTO_QUALITY = 0.85

/** The size a photo of `width` x `height` is drawn at so its long side is at most `longSide`; null when it fits. */
export function scaledSize(width: number, height: number, longSide: number): { width: number; height: number } | null {
  const scale = longSide / Math.max(width, height)
  if (scale >= 1) return null
  return { width: Math.round(width * scale), height: Math.round(height * scale) }
}

/**
 * The photo, shrunk to `longSide` as a JPEG when it is larger; as it was when it fits, or when the browser cannot
 * decode it (the server then says what is wrong with it) or has no canvas to draw it on.
 */
export async function downscalePhoto(photo: Blob, longSide: number): Promise<Blob> {
  if (typeof createImageBitmap !== 'function') return photo
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(photo, { imageOrientation: 'from-image' })
  } catch {
    return photo
  }
  try {
    const size = scaledSize(bitmap.width, bitmap.height, longSide)
    if (!size) return photo
    const canvas = document.createElement('canvas')
    canvas.width = size.width
    canvas.height = size.height
    const context = canvas.getContext('2d')
    if (!context) return photo
    context.imageSmoothingQuality = 'high'
    context.drawImage(bitmap, 0, 0, size.width, size.height)
    const shrunk = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', PHOTO_QUALITY))
    return shrunk ?? photo
  } finally {
    bitmap.close()
  }
}

/**
 * A photo's size in pixels, so its place on the page is kept before it is drawn and a part of it can be shown
 * enlarged; null when the browser cannot decode it off screen.
 */
export async function photoSize(photo: Blob): Promise<{ width: number; height: number } | null> {
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
