import { sittingLimits, sittingMessages } from '@quiz/contracts'
import { AppError, PayloadTooLarge } from '../http/errors'
import { decodeRaster, inspectRaster, type DecodeRules } from '../lib/decode-gate'

export const notAPhoto = () => new AppError(415, 'unsupported_media_type', sittingMessages.notAPhoto)

const photoRules = {
  maxPixels: sittingLimits.photoPixels,
  formats: ['jpeg', 'png', 'webp'],
  failOn: 'truncated',
} satisfies DecodeRules

const tooCostly = () =>
  new AppError(422, 'sheet_unreadable', sittingMessages.photoTooCostly, undefined, undefined, { refusal: 'too_costly' })

/** Refuses a photo from its header alone (415, 413 or 422): nothing is decoded before the check. */
export async function checkPhoto(bytes: Buffer) {
  const header = await inspectRaster(bytes, photoRules)
  if (header === 'not_an_image') throw notAPhoto()
  if (header === 'too_many_pixels') throw new PayloadTooLarge(sittingMessages.photoTooManyPixels)
  if (header === 'too_costly') throw tooCostly()
}

/** The photo kept with a scan: upright, at most 2,000 px on its long side, a fresh JPEG with no metadata (no GPS). */
export async function keptPhoto(bytes: Buffer): Promise<{ data: Buffer; type: string }> {
  const side = sittingLimits.keptPhotoSide
  const data = await decodeRaster(bytes, photoRules, (image) =>
    image.rotate().resize(side, side, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 75 }).toBuffer(),
  )
  if (data === 'too_costly') throw tooCostly()
  if (typeof data === 'string') throw notAPhoto()
  return { data, type: 'image/jpeg' }
}
