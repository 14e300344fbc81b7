// Raster pictures in questions and options (API.md "Pictures in questions").
import { z } from 'zod'

export const pictureLimits = {
  /** Decoded bytes of one picture as sent. */
  bytes: 5 * 1024 * 1024,
  /** Width x height of a picture as sent: a small file can declare a huge canvas (a decompression bomb). */
  pixels: 50_000_000,
  /** The long side of a stored picture; smaller ones keep their size. */
  maxSide: 1_600,
} as const

export const pictureMessages = {
  notAPicture: 'Send a picture: PNG, JPEG, WebP or GIF, as a data: URL in base64.',
  tooLarge: 'A picture may be at most 5 MB.',
  tooManyPixels: 'A picture may be at most 50 megapixels.',
  tooCostly:
    'This picture takes too long to read (a progressive JPEG of over 64 scans, or a decode over 10 s): save it again as an ordinary JPEG or PNG.',
  unknown: 'This picture is not in the bank: send the picture itself.',
  svgAndPicture: 'An image is either an SVG drawing or a picture, not both.',
  linked: 'A picture that is only linked (an http address) cannot be brought in: put the picture itself in the file.',
} as const

/** `/api/pictures/{name}.webp`: the one address of a stored picture (its name a keyed hash, server/src/pictures). */
export const picturePath = (name: string) => `/api/pictures/${name}.webp`
export const PICTURE_URL_PATTERN = /^\/api\/pictures\/([0-9a-f]{64})\.webp$/

/** A stored picture as every payload shows it. */
export const PictureSchema = z.object({
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
})
export type Picture = z.infer<typeof PictureSchema>

/**
 * A picture as sent: its bytes as a `data:` URL, or one the bank already holds, by its url (the editor sends back
 * what it was given; width and height, if sent, are ignored: the server writes the stored ones).
 */
export const PictureInputSchema = z.union([
  z.string().regex(/^data:/, pictureMessages.notAPicture),
  z.object({
    url: z.string().regex(PICTURE_URL_PATTERN, pictureMessages.unknown),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
  }),
])
export type PictureInput = z.input<typeof PictureInputSchema>
