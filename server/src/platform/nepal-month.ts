import NepaliDateConverter from '@remotemerge/nepali-date-converter'

/** Nepal Standard Time is UTC+5:45 all year (no daylight saving). */
const NEPAL_OFFSET_MS = (5 * 60 + 45) * 60_000
const DAY_MS = 24 * 60 * 60 * 1000
const pad = (value: number) => String(value).padStart(2, '0')

/**
 * The start (epoch ms) of the Nepal calendar month (Bikram Sambat) holding `ms`: midnight in Nepal of its first day.
 * Outside the converter's years, the Gregorian month in Nepal's time.
 */
export function nepalMonthStart(ms: number): number {
  const nepal = new Date(ms + NEPAL_OFFSET_MS)
  const midnight = Date.UTC(nepal.getUTCFullYear(), nepal.getUTCMonth(), nepal.getUTCDate()) - NEPAL_OFFSET_MS
  const ad = `${nepal.getUTCFullYear()}-${pad(nepal.getUTCMonth() + 1)}-${pad(nepal.getUTCDate())}`
  try {
    const day = new NepaliDateConverter(ad).toBs().date
    return midnight - (day - 1) * DAY_MS
  } catch {
    return midnight - (nepal.getUTCDate() - 1) * DAY_MS
  }
}
