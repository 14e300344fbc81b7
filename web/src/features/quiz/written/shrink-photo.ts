// Loaded when the learner picks photos, not with the exam screen.

/** The server keeps a page at most this long on its long side (API.md): sending more only costs the learner data. */
export const PAGE_LONG_SIDE = 2_200
const JPEG_QUALITY = 0.85

/** The size a photo is drawn at: its long side at most `longSide`, never enlarged. */
export function shrunkSize(width: number, height: number, longSide = PAGE_LONG_SIDE) {
  const scale = Math.min(1, longSide / Math.max(width, height))
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }
}

/**
 * A page photo shrunk on the phone before it is sent: upright from its EXIF orientation (createImageBitmap's
 * `from-image`), at most 2,200 px on its long side, a JPEG without metadata. A photo the browser cannot decode
 * (HEIC on some phones) goes as it is, and the server says whether it can read it.
 */
export async function shrinkPhoto(file: Blob): Promise<Blob> {
  if (typeof createImageBitmap !== 'function') return file
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' })
  } catch {
    return file
  }
  try {
    const { width, height } = shrunkSize(bitmap.width, bitmap.height)
    const canvas = document.createElement('canvas')
    canvas.width = width
    canvas.height = height
    const context = canvas.getContext('2d')
    if (!context) return file
    context.drawImage(bitmap, 0, 0, width, height)
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY))
    return blob ?? file
  } finally {
    bitmap.close()
  }
}

/** Shrinks photos one after another: a cheap phone holds one 12-megapixel bitmap in memory at a time. */
export async function shrinkPhotos(files: readonly Blob[]): Promise<Blob[]> {
  const shrunk: Blob[] = []
  for (const file of files) shrunk.push(await shrinkPhoto(file))
  return shrunk
}
