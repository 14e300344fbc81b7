import NepaliDateConverter from '@remotemerge/nepali-date-converter'
import { digitsFor, toDevanagariDigits } from './digits'

export { digitsFor, toDevanagariDigits }

/**
 * A score to exactly 2 decimals (SPEC.md): 2.6 -> "2.60", -0.4 -> "-0.40". Rounds half away from zero on
 * the value in hundredths, so binary noise such as 2.5999999 still reads "2.60", and never shows "-0.00".
 */
export function formatScore(score: number, language = 'en'): string {
  const hundredths = Math.round(Math.abs(score) * 100 + 1e-9)
  const sign = score < 0 && hundredths !== 0 ? '-' : ''
  return digitsFor(`${sign}${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`, language)
}

/**
 * Marks with their sign, as a key change shows them: "+1.00", "−0.20" (a true minus sign, which screen readers
 * read as "minus"), "0.00". Two decimals like every score.
 */
export function formatMarks(marks: number, language = 'en'): string {
  const plain = formatScore(Math.abs(marks), language)
  if (Math.round(Math.abs(marks) * 100 + 1e-9) === 0) return plain
  return `${marks < 0 ? '−' : '+'}${plain}`
}

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

/**
 * A count or other number in the language's digits, grouped as Nepal and India group them (1,00,000); whole by
 * default, or as `options` say (`{ maximumFractionDigits: 2 }`, `{ style: 'percent' }`, `{ useGrouping: false }`).
 */
export function formatNumber(
  value: number,
  language: string,
  options: Intl.NumberFormatOptions = { maximumFractionDigits: 0 },
): string {
  if (language !== 'ne') return new Intl.NumberFormat('en-IN', options).format(value)
  if (nepaliIntl) return new Intl.NumberFormat('ne-NP', options).format(value)
  return toDevanagariDigits(new Intl.NumberFormat('en-IN', options).format(value))
}

/** Bikram Sambat months, as Nepal's government calendar spells them. */
export const BS_MONTHS = [
  'बैशाख',
  'जेठ',
  'असार',
  'साउन',
  'भदौ',
  'असोज',
  'कात्तिक',
  'मंसिर',
  'पुस',
  'माघ',
  'फागुन',
  'चैत',
] as const

/** Nepal Standard Time is UTC+5:45 all year (no daylight saving). */
const NEPAL_OFFSET_MS = (5 * 60 + 45) * 60_000
const pad = (value: number) => String(value).padStart(2, '0')

/** The wall clock in Nepal at `date`, as UTC fields of a shifted Date. */
const nepalClock = (date: Date) => new Date(date.getTime() + NEPAL_OFFSET_MS)

export interface BsDate {
  year: number
  /** 1..12 */
  month: number
  day: number
}

/**
 * The Bikram Sambat date of Nepal's calendar day at `date` (whatever the device's time zone), or null outside
 * the converter's table. The conversion is @remotemerge/nepali-date-converter's (docs/decisions/013).
 */
export function toBikramSambat(date: Date): BsDate | null {
  const nepal = nepalClock(date)
  const ad = `${nepal.getUTCFullYear()}-${pad(nepal.getUTCMonth() + 1)}-${pad(nepal.getUTCDate())}`
  try {
    const bs = new NepaliDateConverter(ad).toBs()
    return { year: bs.year, month: bs.month, day: bs.date }
  } catch {
    return null
  }
}

const englishDateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' })
const englishDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' })

/** "२०८३ मंसिर ६" (WEB.md), or the Gregorian date in Devanagari digits outside the converter's years. */
function nepaliDate(date: Date): string {
  const bs = toBikramSambat(date)
  if (!bs) {
    const nepal = nepalClock(date)
    return toDevanagariDigits(`${nepal.getUTCFullYear()}-${pad(nepal.getUTCMonth() + 1)}-${pad(nepal.getUTCDate())}`)
  }
  return toDevanagariDigits(`${bs.year} ${BS_MONTHS[bs.month - 1]} ${bs.day}`)
}

/**
 * A timestamp worded for the app's language: in English the Gregorian date and time in the browser's time zone
 * ("22 Nov 2026, 07:00"); in Nepali the Bikram Sambat date and the time in Nepal ("२०८३ मंसिर ६, १२:४५").
 * Nepali is built here because desktop Chromium ships no Nepali locale data (Intl falls back to en-US there).
 */
export function formatDateTime(iso: string, language: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  if (language !== 'ne') return englishDateTime.format(date)
  const nepal = nepalClock(date)
  return `${nepaliDate(date)}, ${toDevanagariDigits(`${pad(nepal.getUTCHours())}:${pad(nepal.getUTCMinutes())}`)}`
}

/** The date alone: "22 Nov 2026" or "२०८३ मंसिर ६". */
export function formatDate(iso: string, language: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return language === 'ne' ? nepaliDate(date) : englishDate.format(date)
}

// A live mock happens at one moment for all of Nepal: its times are Nepal's in both languages (WEB.md), not the
// device's time zone, so a phone set to another zone still reads the time printed on the notice.
const englishNepalDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' })

/** Nepal's wall-clock time alone: "10:15 NPT" in English, "१०:१५" in Nepali. */
export function formatNepalTime(iso: string, language: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const nepal = nepalClock(date)
  const time = `${pad(nepal.getUTCHours())}:${pad(nepal.getUTCMinutes())}`
  return language === 'ne' ? toDevanagariDigits(time) : `${time} NPT`
}

/** "22 Nov 2026, 10:00 NPT" in English; "२०८३ मंसिर ६, १०:००" (Bikram Sambat, Nepal time) in Nepali. */
export function formatNepalDateTime(iso: string, language: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  if (language === 'ne') return formatDateTime(iso, 'ne')
  return `${englishNepalDate.format(nepalClock(date))}, ${formatNepalTime(iso, 'en')}`
}

/**
 * A time left as a countdown shows it: "03:04:05" below a day, "2 d 03:04:05" above; never negative. The day unit
 * comes from the caller (translated).
 */
export function formatCountdown(milliseconds: number, language: string, dayUnit: string): string {
  const total = Math.max(0, Math.ceil(milliseconds / 1000))
  const days = Math.floor(total / 86_400)
  const clock = `${pad(Math.floor((total % 86_400) / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`
  return digitsFor(days > 0 ? `${days} ${dayUnit} ${clock}` : clock, language)
}
