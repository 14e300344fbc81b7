import { writtenAnswerLimits, writtenAnswerMessages } from '@quiz/contracts'
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { AppError, PayloadTooLarge, ValidationFailed } from '../http/errors'
import { decodeRaster, type DecodeRules } from '../lib/decode-gate'
import { withPhoneRendition } from '../lib/page-renditions'

// A page photo: kept through the decode gate (060), served by a signed, expiring address (065), phone-sized too (078).

const pageRules = {
  maxPixels: writtenAnswerLimits.photoPixels,
  formats: ['jpeg', 'png', 'webp'],
  // Phones and bad connections cut photos short at the end; what is there is still a page.
  failOn: 'truncated',
} satisfies DecodeRules

export const notAPhoto = () => new AppError(415, 'unsupported_media_type', writtenAnswerMessages.notAPhoto)

export interface KeptPage {
  /** sha256 of `data`, hex: the same photo sent twice is one page. */
  hash: string
  data: Buffer
  content_type: string
  width: number
  height: number
  /** The phone rendition (`phoneRendition`), null if it could not be made: it is then made on its first request. */
  phone_data: Buffer | null
}

/** Upright from its EXIF, at most 2,200 px on its long side, a fresh JPEG without metadata (no GPS, no camera). */
export async function keptPage(bytes: Buffer): Promise<KeptPage> {
  const side = writtenAnswerLimits.keptSide
  const kept = await decodeRaster(bytes, pageRules, (image) =>
    image
      .rotate()
      .resize(side, side, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 80 })
      .toBuffer({ resolveWithObject: true }),
  )
  if (kept === 'too_many_pixels') throw new PayloadTooLarge(writtenAnswerMessages.photoTooManyPixels)
  if (kept === 'too_costly')
    throw new ValidationFailed({ image: [writtenAnswerMessages.photoTooCostly] }, writtenAnswerMessages.photoTooCostly)
  if (typeof kept === 'string') throw notAPhoto()
  return asKeptPage(kept.data, kept.info.width, kept.info.height)
}

/** A JPEG of ours kept as a page, with its phone rendition made now (docs/decisions/078). */
export const asKeptPage = (data: Buffer, width: number, height: number): Promise<KeptPage> =>
  withPhoneRendition({
    hash: createHash('sha256').update(data).digest('hex'),
    data,
    content_type: 'image/jpeg',
    width,
    height,
  })

const HOUR = 3_600_000

export const pageUrlKey = (jwtSecret: string) => createHmac('sha256', jwtSecret).update('written-page-url').digest()

const signatureOf = (key: Buffer, pageId: number, expires: number) =>
  createHmac('sha256', key).update(`${pageId}.${expires}`).digest('base64url')

/** A page's address, good for one to two hours, the same within an hour so the browser keeps the image (065). */
export function pageUrl(key: Buffer, pageId: number, now: number) {
  const expires = (Math.floor(now / HOUR) + 2) * HOUR
  return `/api/written-pages/${pageId}/?expires=${expires}&signature=${signatureOf(key, pageId, expires)}`
}

/** The full page's and its phone rendition's addresses: one signature, as the size one may see is no secret. */
export function pageUrls(key: Buffer, pageId: number, now: number) {
  const url = pageUrl(key, pageId, now)
  return { url, phone_url: `${url}&size=phone` }
}

/** The page id a signed address names, if its signature holds and it has not expired. */
export function verifiedPage(
  key: Buffer,
  params: { pageId: string; expires?: string; signature?: string },
  now: number,
): { pageId: number; expires: number } | undefined {
  const pageId = Number(params.pageId)
  const expires = Number(params.expires)
  if (!Number.isSafeInteger(pageId) || pageId <= 0 || !Number.isSafeInteger(expires) || expires < now) return
  const expected = Buffer.from(signatureOf(key, pageId, expires))
  const given = Buffer.from(params.signature ?? '')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return
  return { pageId, expires }
}
