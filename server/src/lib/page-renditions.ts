import { writtenAnswerLimits } from '@quiz/contracts'
import { decodeRaster, type DecodeRules } from './decode-gate'

// A kept page's phone rendition (docs/decisions/078): written answers' pages and booklet pages, which join them.

/** Our own kept pages (JPEG, at most `keptSide` square). */
const keptRules = {
  maxPixels: writtenAnswerLimits.keptSide * writtenAnswerLimits.keptSide,
  formats: ['jpeg', 'png', 'webp'],
} satisfies DecodeRules

export const PHONE_TYPE = 'image/webp'

/** WebP at quality 60, 720 px: a handwritten page in 35-45 KB, a sixth of the JPEG; undefined if unreadable. */
export async function phoneRendition(kept: Buffer): Promise<Buffer | undefined> {
  const made = await decodeRaster(kept, keptRules, (image) =>
    image.resize({ width: writtenAnswerLimits.phoneWidth, withoutEnlargement: true }).webp({ quality: 60 }).toBuffer(),
  )
  return typeof made === 'string' ? undefined : made
}

/** A kept page with its phone rendition made in the upload's turn; null if not, made then at its first request. */
export async function withPhoneRendition<Kept extends { data: Buffer }>(
  kept: Kept,
): Promise<Kept & { phone_data: Buffer | null }> {
  return { ...kept, phone_data: (await phoneRendition(kept.data)) ?? null }
}
