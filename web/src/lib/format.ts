/**
 * A score to exactly 2 decimals (SPEC.md): 2.6 -> "2.60", -0.4 -> "-0.40". Rounds half away from zero on
 * the value in hundredths, so binary noise such as 2.5999999 still reads "2.60", and never shows "-0.00".
 */
export function formatScore(score: number): string {
  const hundredths = Math.round(Math.abs(score) * 100 + 1e-9)
  const sign = score < 0 && hundredths !== 0 ? '-' : ''
  return `${sign}${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`
}

/** A timestamp in the browser's time zone, worded for the app's language ("ne" gives Nepali month names and digits). */
export function formatDateTime(iso: string, language: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return new Intl.DateTimeFormat(language === 'ne' ? 'ne-NP' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(date)
}
