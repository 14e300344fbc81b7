// Limits of written answers without zod: the exam screen reads them (web's quiz chunk stays free of the schemas).

export const writtenAnswerLimits = {
  textLength: 30_000,
  pages: 12,
  /** A page photo as sent. */
  photoBytes: 15 * 1024 * 1024,
  photoPixels: 50_000_000,
  /** The kept page's long side. */
  keptSide: 2_200,
  /** A kept page's phone rendition: its width (no wider than the page), drawn first on a small screen (decision 078). */
  phoneWidth: 720,
  uploadGraceMinutes: { min: 0, max: 60, default: 15 },
} as const
