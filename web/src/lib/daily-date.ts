import type { TFunction } from 'i18next'
import { digitsFor } from './format'

const englishDay = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' })

/** "28 Nov 2026" from the server's AD day ("2026-11-28"), whatever the device's time zone. */
export function formatAdDay(ad: string): string {
  const date = new Date(`${ad}T00:00:00Z`)
  return Number.isNaN(date.getTime()) ? ad : englishDay.format(date)
}

/**
 * A day as WEB.md "The daily set" shows it: Bikram Sambat first ("12 Mangsir 2083 BS" / "२०८३ मंसिर १२"), with the
 * AD date beside it in English. The server sends both calendars' dates (`bs` null outside its table: AD alone).
 */
export function formatDailyDate(date: { ad: string; bs: string | null }, language: string, t: TFunction<'daily'>) {
  const parts = date.bs?.split('-').map(Number)
  const ad = formatAdDay(date.ad)
  if (!parts || parts.length !== 3 || parts.some((part) => !Number.isInteger(part))) {
    return language === 'ne' ? digitsFor(date.ad, 'ne') : ad
  }
  const [year, month, day] = parts as [number, number, number]
  const bs = digitsFor(t('card.bs_date', { year, month: t(`bs_months.${month}` as 'bs_months.1'), day }), language)
  return language === 'ne' ? bs : `${bs} (${ad})`
}

/** Nepal Standard Time is UTC+5:45 all year; the daily set's days are Nepal's (API.md). */
const NEPAL_OFFSET_MS = (5 * 60 + 45) * 60_000

/** Today's day in Nepal as "YYYY-MM-DD", whatever the device's time zone. */
export const nepalToday = (now = Date.now()) => new Date(now + NEPAL_OFFSET_MS).toISOString().slice(0, 10)

/** `day` moved by `days` calendar days ("2026-11-30", 1 -> "2026-12-01"). */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}
