import { describe, expect, it } from 'vitest'
import {
  BS_MONTHS,
  formatDate,
  formatCountdown,
  formatDateTime,
  formatMarks,
  formatNepalDateTime,
  formatNepalTime,
  formatNumber,
  formatScore,
  toBikramSambat,
  toDevanagariDigits,
} from './format'

describe('formatMarks', () => {
  it("signs marks with + and a true minus, to two decimals, in the language's digits", () => {
    expect(formatMarks(1)).toBe('+1.00')
    expect(formatMarks(-0.2)).toBe('\u22120.20')
    expect(formatMarks(0)).toBe('0.00')
    expect(formatMarks(-0.001)).toBe('0.00')
    expect(formatMarks(-0.25, 'ne')).toBe('\u2212०.२५')
  })
})

describe('formatScore', () => {
  it('shows exactly two decimals', () => {
    expect(formatScore(3)).toBe('3.00')
    expect(formatScore(2.6)).toBe('2.60')
    expect(formatScore(0.8)).toBe('0.80')
    expect(formatScore(10.25)).toBe('10.25')
  })

  it('hides floating-point noise', () => {
    expect(formatScore(2.5999999999999996)).toBe('2.60')
    expect(formatScore(0.1 + 0.2)).toBe('0.30')
    expect(formatScore(3 - 0.2 * 3)).toBe('2.40')
  })

  it('keeps the sign of a negative score and never shows -0.00', () => {
    expect(formatScore(-0.4)).toBe('-0.40')
    expect(formatScore(-1.2)).toBe('-1.20')
    expect(formatScore(-0.001)).toBe('0.00')
    expect(formatScore(0)).toBe('0.00')
  })

  it('rounds half away from zero', () => {
    expect(formatScore(1.005)).toBe('1.01')
    expect(formatScore(-1.005)).toBe('-1.01')
  })
})

describe('formatDateTime', () => {
  const iso = '2026-11-22T07:05:00.000Z'
  const local = new Date(iso)
  const hhmm = `${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`

  it('formats English in the browser time zone', () => {
    expect(formatDateTime(iso, 'en')).toBe(`${local.getDate()} Nov 2026, ${hhmm}`)
  })

  it('formats Nepali as a Bikram Sambat date with the month name, in Nepal time, with Devanagari digits', () => {
    // 07:05 UTC is 12:50 in Nepal (UTC+5:45); 22 November 2026 is 6 Mangsir 2083 (WEB.md).
    expect(formatDateTime(iso, 'ne')).toBe('२०८३ मंसिर ६, १२:५०')
    expect(formatDate(iso, 'ne')).toBe('२०८३ मंसिर ६')
  })

  it("uses Nepal's calendar day, not the device's or UTC's", () => {
    // 18:30 UTC on 21 November is already 00:15 on 22 November in Nepal.
    expect(formatDateTime('2026-11-21T18:30:00.000Z', 'ne')).toBe('२०८३ मंसिर ६, ००:१५')
    expect(formatDateTime('2026-11-21T18:14:00.000Z', 'ne')).toBe('२०८३ मंसिर ५, २३:५९')
  })

  it('converts digits to Devanagari', () => {
    expect(toDevanagariDigits('2026-11, 07:05')).toBe('२०२६-११, ०७:०५')
  })

  it('returns an unreadable value as it is', () => {
    expect(formatDateTime('not a date', 'en')).toBe('not a date')
  })
})

describe('Bikram Sambat conversion (checked against known dates: WEB.md, Nepal government calendar)', () => {
  const bs = (iso: string) => toBikramSambat(new Date(iso))
  it.each([
    ['2026-04-13T18:15:00.000Z', { year: 2083, month: 1, day: 1 }], // 1 Baisakh 2083 = 14 April 2026, 00:00 in Nepal
    ['2026-11-22T06:00:00.000Z', { year: 2083, month: 8, day: 6 }], // 6 Mangsir 2083 = 22 November 2026
    ['2026-10-18T06:00:00.000Z', { year: 2083, month: 7, day: 1 }], // 1 Kartik 2083: where old tables go one day off
    ['2026-11-17T06:00:00.000Z', { year: 2083, month: 8, day: 1 }], // 1 Mangsir 2083
    ['2027-04-14T06:00:00.000Z', { year: 2084, month: 1, day: 1 }], // 1 Baisakh 2084
    ['2025-04-14T06:00:00.000Z', { year: 2082, month: 1, day: 1 }], // 1 Baisakh 2082
    ['2024-04-13T06:00:00.000Z', { year: 2081, month: 1, day: 1 }], // 1 Baisakh 2081
  ])('%s is %o', (iso, expected) => {
    expect(bs(iso)).toEqual(expected)
  })

  it('turns the day at midnight in Nepal', () => {
    expect(bs('2026-04-13T18:14:59.000Z')).toEqual({ year: 2082, month: 12, day: 30 })
    expect(bs('2026-04-13T18:15:00.000Z')).toEqual({ year: 2083, month: 1, day: 1 })
  })

  it('names the twelve months', () => {
    expect(BS_MONTHS[0]).toBe('बैशाख')
    expect(BS_MONTHS[7]).toBe('मंसिर')
  })

  it('falls back to the Gregorian date outside the table', () => {
    expect(formatDate('2090-01-01T06:00:00.000Z', 'ne')).toBe('२०९०-०१-०१')
  })
})

describe('formatNumber and Nepali scores', () => {
  it('writes numbers and scores in Devanagari digits in Nepali only', () => {
    expect(formatNumber(12, 'ne')).toBe('१२')
    expect(formatNumber(33.333, 'ne', { maximumFractionDigits: 2 })).toBe('३३.३३')
    expect(formatNumber(12, 'en')).toBe('12')
    expect(formatScore(-0.4, 'ne')).toBe('-०.४०')
    expect(formatScore(2.6, 'en')).toBe('2.60')
  })
})

describe('live mock times (Nepal time in both languages)', () => {
  // 04:15 UTC is 10:00 in Nepal (UTC+5:45), on 6 Mangsir 2083.
  const start = '2026-11-22T04:15:00.000Z'

  it('writes English as the Gregorian date and Nepal time marked NPT, whatever the device zone', () => {
    expect(formatNepalDateTime(start, 'en')).toBe('22 Nov 2026, 10:00 NPT')
    expect(formatNepalTime('2026-11-22T04:30:00.000Z', 'en')).toBe('10:15 NPT')
  })

  it('writes Nepali as the Bikram Sambat date and Nepal time in Devanagari digits', () => {
    expect(formatNepalDateTime(start, 'ne')).toBe('२०८३ मंसिर ६, १०:००')
    expect(formatNepalTime('2026-11-22T04:30:00.000Z', 'ne')).toBe('१०:१५')
  })

  it("takes Nepal's calendar day: 19:00 UTC is already the next day in Nepal", () => {
    expect(formatNepalDateTime('2026-11-21T19:00:00.000Z', 'en')).toBe('22 Nov 2026, 00:45 NPT')
  })

  it('counts down in hours, minutes and seconds, with days above a day, never below zero', () => {
    expect(formatCountdown(3_723_400, 'en', 'd')).toBe('01:02:04')
    expect(formatCountdown(2 * 86_400_000 + 5_000, 'en', 'd')).toBe('2 d 00:00:05')
    expect(formatCountdown(-10, 'en', 'd')).toBe('00:00:00')
    expect(formatCountdown(2 * 86_400_000 + 5_000, 'ne', 'दिन')).toBe('२ दिन ००:००:०५')
  })
})
