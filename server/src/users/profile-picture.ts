import { ValidationFailed } from '../http/errors'
import { reencodeRaster } from '../lib/raster-images'

export const PROFILE_PICTURE_MAX_SIDE = 512
/** A phone's photo (12 MP, 24 MP on recent iPhones) passes; a 7000 x 7000 bomb does not. */
export const PROFILE_PICTURE_MAX_MEGAPIXELS = 25

const refused = (field: string, detail: string) => new ValidationFailed({ profile_picture: [field] }, detail)

// As every raster we keep (lib/raster-images.ts).
export async function reencodeProfilePicture(input: Buffer): Promise<{ data: Buffer; contentType: string }> {
  const result = await reencodeRaster(input, {
    maxPixels: PROFILE_PICTURE_MAX_MEGAPIXELS * 1_000_000,
    maxSide: PROFILE_PICTURE_MAX_SIDE,
    quality: 82,
  })
  if (result === 'too_many_pixels')
    throw refused(
      `The image is too large: at most ${PROFILE_PICTURE_MAX_MEGAPIXELS} megapixels.`,
      'The profile picture is too large.',
    )
  if (result === 'too_costly')
    throw refused(
      'The image takes too long to read: save it again as an ordinary JPEG or PNG, or send the photo as the camera took it.',
      'The profile picture takes too long to read.',
    )
  if (result === 'not_an_image')
    throw refused('Upload a valid image: JPEG, PNG, WebP or GIF.', 'The profile picture is not an image we accept.')
  return { data: result.data, contentType: 'image/webp' }
}
