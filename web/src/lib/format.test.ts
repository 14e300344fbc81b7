import { describe, expect, it } from 'vitest'
import { formatDateTime, formatScore, toDevanagariDigits } from './format'

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

  it('formats Nepali with Nepali month names and Devanagari digits, without relying on Intl locale data', () => {
    expect(formatDateTime(iso, 'ne')).toBe(toDevanagariDigits(`${local.getDate()} नोभेम्बर 2026, ${hhmm}`))
    expect(formatDateTime(iso, 'ne')).toMatch(/^[०-९]{1,2} नोभेम्बर २०२६, [०-९]{2}:[०-९]{2}$/)
  })

  it('converts digits to Devanagari', () => {
    expect(toDevanagariDigits('2026-11, 07:05')).toBe('२०२६-११, ०७:०५')
  })

  it('returns an unreadable value as it is', () => {
    expect(formatDateTime('not a date', 'en')).toBe('not a date')
  })
})
