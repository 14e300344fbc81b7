import sharp from 'sharp'
import { ValidationFailed } from '../http/errors'

export const PROFILE_PICTURE_MAX_SIDE = 512
// A 5 MB file can still declare a huge canvas (a "decompression bomb"): refuse anything over ~50 megapixels
// before decoding it.
const MAX_INPUT_PIXELS = 50_000_000
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif'])

const notAnImage = () =>
  new ValidationFailed(
    { profile_picture: ['Upload a valid image: JPEG, PNG, WebP or GIF.'] },
    'The profile picture is not an image we accept.',
  )

/**
 * Decides the format by content (never by name or declared type), then re-encodes: turned upright by its
 * EXIF orientation, shrunk to fit 512x512, written fresh as WebP. The output carries no metadata (sharp
 * drops EXIF, GPS and ICC unless asked to keep them), and re-encoding leaves nothing of a polyglot file.
 */
export async function reencodeProfilePicture(input: Buffer): Promise<{ data: Buffer; contentType: string }> {
  let metadata: sharp.Metadata
  try {
    metadata = await sharp(input).metadata()
  } catch {
    throw notAnImage()
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) throw notAnImage()
  if (!metadata.width || !metadata.height) throw notAnImage()
  if (metadata.width * metadata.height > MAX_INPUT_PIXELS) {
    throw new ValidationFailed(
      { profile_picture: ['The image is too large: at most 50 megapixels.'] },
      'The profile picture is too large.',
    )
  }
  try {
    const data = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize(PROFILE_PICTURE_MAX_SIDE, PROFILE_PICTURE_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer()
    return { data, contentType: 'image/webp' }
  } catch {
    // Truncated or corrupt image data.
    throw notAnImage()
  }
}
