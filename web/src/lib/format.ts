/**
 * A score to exactly 2 decimals (SPEC.md): 2.6 -> "2.60", -0.4 -> "-0.40". Rounds half away from zero on
 * the value in hundredths, so binary noise such as 2.5999999 still reads "2.60", and never shows "-0.00".
 */
export function formatScore(score: number): string {
  const hundredths = Math.round(Math.abs(score) * 100 + 1e-9)
  const sign = score < 0 && hundredths !== 0 ? '-' : ''
  return `${sign}${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`
}

const NEPALI_MONTHS = [
  'जनवरी',
  'फेब्रुअरी',
  'मार्च',
  'अप्रिल',
  'मे',
  'जुन',
  'जुलाई',
  'अगस्ट',
  'सेप्टेम्बर',
  'अक्टोबर',
  'नोभेम्बर',
  'डिसेम्बर',
]
const DEVANAGARI_DIGITS = '०१२३४५६७८९'

export function toDevanagariDigits(text: string) {
  return text.replace(/[0-9]/g, (digit) => DEVANAGARI_DIGITS[Number(digit)]!)
}

const englishDateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' })
const pad = (value: number) => String(value).padStart(2, '0')

/**
 * A timestamp in the browser's time zone, worded for the app's language: "22 Nov 2026, 07:00" or
 * "२२ नोभेम्बर २०२६, ०७:००". Nepali is built by hand because desktop Chromium ships no Nepali locale data
 * (Intl quietly falls back to en-US there).
 */
export function formatDateTime(iso: string, language: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  if (language !== 'ne') return englishDateTime.format(date)
  const month = NEPALI_MONTHS[date.getMonth()]!
  return toDevanagariDigits(
    `${date.getDate()} ${month} ${date.getFullYear()}, ${pad(date.getHours())}:${pad(date.getMinutes())}`,
  )
}
