import NepaliDateConverter from '@remotemerge/nepali-date-converter'
import { toDevanagariDigits } from './digits'

const BS_MONTHS = ['बैशाख', 'जेठ', 'असार', 'साउन', 'भदौ', 'असोज', 'कात्तिक', 'मंसिर', 'पुस', 'माघ', 'फागुन', 'चैत'] as const

/** Nepal Standard Time is UTC+5:45 all year (no daylight saving). */
const NEPAL_OFFSET_MS = (5 * 60 + 45) * 60_000
const pad = (value: number) => String(value).padStart(2, '0')

const englishDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'Asia/Kathmandu' })

// WEB.md "Nepali dates and digits"; Bikram Sambat by the web app's library (docs/decisions/013).
export function nepalDateTime(ms: number, language: 'en' | 'ne'): string {
  const nepal = new Date(ms + NEPAL_OFFSET_MS)
  const time = `${pad(nepal.getUTCHours())}:${pad(nepal.getUTCMinutes())}`
  if (language === 'en') return `${englishDate.format(ms)}, ${time} NPT`
  const ad = `${nepal.getUTCFullYear()}-${pad(nepal.getUTCMonth() + 1)}-${pad(nepal.getUTCDate())}`
  let date = ad
  try {
    const bs = new NepaliDateConverter(ad).toBs()
    date = `${bs.year} ${BS_MONTHS[bs.month - 1]} ${bs.date}`
  } catch {
    // Outside the converter's years: the Gregorian date, still in Nepal's calendar day.
  }
  return toDevanagariDigits(`${date}, ${time}`)
}
