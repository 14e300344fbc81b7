import NepaliDateConverter from '@remotemerge/nepali-date-converter'

/** Nepal Standard Time is UTC+5:45 all year (no daylight saving): a Nepal day starts at 18:15 UTC the day before. */
export const NEPAL_OFFSET_MS = (5 * 60 + 45) * 60_000
export const DAY_MS = 24 * 60 * 60 * 1000
const pad = (value: number) => String(value).padStart(2, '0')

/** A Nepal calendar day as its Gregorian date, `YYYY-MM-DD`: the daily set's key. */
export function nepalDay(ms: number): string {
  const nepal = new Date(ms + NEPAL_OFFSET_MS)
  return `${nepal.getUTCFullYear()}-${pad(nepal.getUTCMonth() + 1)}-${pad(nepal.getUTCDate())}`
}

/** Midnight in Nepal (epoch ms) starting the day `YYYY-MM-DD`. */
export function nepalMidnight(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`) - NEPAL_OFFSET_MS
}

/** The instant of `HH:MM` Nepal time on `day`. */
export function nepalInstant(day: string, hhmm: string): number {
  const [hours, minutes] = hhmm.split(':').map(Number)
  return nepalMidnight(day) + (hours! * 60 + minutes!) * 60_000
}

/** `HH:MM` in Nepal at `ms`. */
export function nepalClock(ms: number): string {
  const nepal = new Date(ms + NEPAL_OFFSET_MS)
  return `${pad(nepal.getUTCHours())}:${pad(nepal.getUTCMinutes())}`
}

export function addDays(day: string, days: number): string {
  const date = new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS)
  return date.toISOString().slice(0, 10)
}

/** The Bikram Sambat date of a Gregorian day; null outside the converter's years. */
export function bikramSambat(day: string): string | null {
  try {
    const bs = new NepaliDateConverter(day).toBs()
    return `${bs.year}-${pad(bs.month)}-${pad(bs.date)}`
  } catch {
    return null
  }
}

/** The Nepal calendar month (Bikram Sambat `YYYY-MM`) of a day; outside the converter's years, its Gregorian month. */
export function nepalMonth(day: string): string {
  return (bikramSambat(day) ?? day).slice(0, 7)
}

export function isCalendarDay(day: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false
  const ms = Date.parse(`${day}T00:00:00.000Z`)
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(day)
}
