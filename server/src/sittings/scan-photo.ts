import { sittingLimits, sittingMessages } from '@quiz/contracts'
import sharp from 'sharp'
import { AppError, PayloadTooLarge } from '../http/errors'

/** JPEG, PNG or WebP by their first bytes: the name and declared type of an upload say nothing. */
function isAcceptedPhoto(bytes: Buffer) {
  const jpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff
  const png =
    bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  const webp =
    bytes.length > 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP'
  return jpeg || png || webp
}

export const notAPhoto = () => new AppError(415, 'unsupported_media_type', sittingMessages.notAPhoto)

/**
 * Refuses what is not a photo of an accepted kind (415) or declares more than 50 megapixels (413), from its header
 * alone: nothing is decoded before the check.
 */
export async function checkPhoto(bytes: Buffer) {
  if (!isAcceptedPhoto(bytes)) throw notAPhoto()
  let metadata: sharp.Metadata
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata()
  } catch {
    throw notAPhoto()
  }
  if (!metadata.width || !metadata.height) throw notAPhoto()
  if (metadata.width * metadata.height > sittingLimits.photoPixels)
    throw new PayloadTooLarge(sittingMessages.photoTooManyPixels)
}

/** The photo kept with a scan: upright, at most 2,000 px on its long side, a fresh JPEG with no metadata (no GPS). */
export async function keptPhoto(bytes: Buffer): Promise<{ data: Buffer; type: string }> {
  const side = sittingLimits.keptPhotoSide
  const data = await sharp(bytes, { limitInputPixels: sittingLimits.photoPixels })
    .rotate()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 75 })
    .toBuffer()
  return { data, type: 'image/jpeg' }
}
