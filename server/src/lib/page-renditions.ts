import { writtenAnswerLimits } from '@quiz/contracts'
import { decodeRaster, type DecodeRules } from './decode-gate'

// A kept page's phone rendition (docs/decisions/078): written answers' pages and booklet pages, which join them.

/** Our own kept pages (JPEG, at most `keptSide` square), read again to make their phone rendition. */
const keptRules = {
  maxPixels: writtenAnswerLimits.keptSide * writtenAnswerLimits.keptSide,
  formats: ['jpeg', 'png', 'webp'],
} satisfies DecodeRules

/** What a phone rendition is served as. */
export const PHONE_TYPE = 'image/webp'

/**
 * A kept page at `phoneWidth` px wide (never wider than it is): WebP at quality 60 carries a 720 px page of
 * handwriting in 35-45 KB, a sixth of the 2,200 px JPEG, so a slow connection draws the page in about a second.
 * Undefined if the page cannot be read, which the caller answers with the full page.
 */
export async function phoneRendition(kept: Buffer): Promise<Buffer | undefined> {
  const made = await decodeRaster(kept, keptRules, (image) =>
    image.resize({ width: writtenAnswerLimits.phoneWidth, withoutEnlargement: true }).webp({ quality: 60 }).toBuffer(),
  )
  return typeof made === 'string' ? undefined : made
}

/**
 * A page as kept (a written answer's or a booklet's) with its phone rendition made now, in the upload's turn; null if
 * it could not be, to be made on its first request.
 */
export async function withPhoneRendition<Kept extends { data: Buffer }>(
  kept: Kept,
): Promise<Kept & { phone_data: Buffer | null }> {
  return { ...kept, phone_data: (await phoneRendition(kept.data)) ?? null }
}
