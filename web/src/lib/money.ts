import { toDevanagariDigits } from './digits'

/**
 * Whether this browser has Nepali number data. Desktop Chromium builds often ship without it, and Intl then
 * falls back silently to Latin digits; checked once, by what it actually prints.
 */
const nepaliIntl = (() => {
  try {
    return new Intl.NumberFormat('ne-NP').format(0) === '०'
  } catch {
    return false
  }
})()

/** A number in the app's language: Devanagari digits in Nepali (Intl when it can, else a digit map). */
export function formatNumber(value: number, language: string, options: Intl.NumberFormatOptions = {}): string {
  if (language !== 'ne') return new Intl.NumberFormat('en-IN', options).format(value)
  if (nepaliIntl) return new Intl.NumberFormat('ne-NP', options).format(value)
  // Nepal groups digits as India does (1,00,000); en-IN gives that grouping, the map gives the digits.
  return toDevanagariDigits(new Intl.NumberFormat('en-IN', options).format(value))
}

/** Paisa as rupees for people: "Rs 500", "Rs 1,250.50"; "रु ५००" in Nepali. Integer arithmetic, no float rounding. */
export function formatRupees(paisa: number, language: string): string {
  const whole = Math.trunc(paisa / 100)
  const rest = Math.abs(paisa % 100)
  const rupees = formatNumber(whole, language)
  const decimals = rest === 0 ? '' : `.${String(rest).padStart(2, '0')}`
  return language === 'ne' ? `रु ${rupees}${toDevanagariDigits(decimals)}` : `Rs ${rupees}${decimals}`
}

/** What an admin types as a price in rupees ("499", "499.5", "1,250.50") as paisa, or null; no floats involved. */
export function parseRupees(text: string): number | null {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim().replaceAll(',', ''))
  if (!match) return null
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}
