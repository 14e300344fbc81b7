import { toDevanagariDigits } from './digits'
import { formatNumber } from './format'

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
