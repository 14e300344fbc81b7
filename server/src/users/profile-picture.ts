import { ValidationFailed } from '../http/errors'
import { reencodeRaster } from '../lib/raster-images'

export const PROFILE_PICTURE_MAX_SIDE = 512

// As every raster we keep (lib/raster-images.ts).
export async function reencodeProfilePicture(input: Buffer): Promise<{ data: Buffer; contentType: string }> {
  const result = await reencodeRaster(input, { maxPixels: 50_000_000, maxSide: PROFILE_PICTURE_MAX_SIDE, quality: 82 })
  if (result === 'too_many_pixels') {
    throw new ValidationFailed(
      { profile_picture: ['The image is too large: at most 50 megapixels.'] },
      'The profile picture is too large.',
    )
  }
  if (result === 'not_an_image') {
    throw new ValidationFailed(
      { profile_picture: ['Upload a valid image: JPEG, PNG, WebP or GIF.'] },
      'The profile picture is not an image we accept.',
    )
  }
  return { data: result.data, contentType: 'image/webp' }
}
