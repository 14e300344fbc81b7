import { describe, expect, it } from 'vitest'
import { nepalDateTime } from './nepal-time'

describe('nepalDateTime', () => {
  it('tells English readers the Gregorian date and Nepal time, marked NPT', () => {
    // 07:00 UTC is 12:45 in Nepal (UTC+5:45).
    expect(nepalDateTime(Date.parse('2026-11-22T07:00:00.000Z'), 'en')).toBe('22 Nov 2026, 12:45 NPT')
  })

  it('tells Nepali readers the Bikram Sambat date and Nepal time in Devanagari digits', () => {
    // 22 November 2026 is 6 Mangsir 2083 (WEB.md).
    expect(nepalDateTime(Date.parse('2026-11-22T07:00:00.000Z'), 'ne')).toBe('२०८३ मंसिर ६, १२:४५')
    // 1 Baisakh 2083 = 14 April 2026; 18:15 UTC on the 13th is already 00:00 on the 14th in Nepal.
    expect(nepalDateTime(Date.parse('2026-04-13T18:15:00.000Z'), 'ne')).toBe('२०८३ बैशाख १, ००:००')
    expect(nepalDateTime(Date.parse('2026-04-13T18:14:00.000Z'), 'ne')).toBe('२०८२ चैत ३०, २३:५९')
    // 1 Kartik 2083 = 18 October 2026, where old tables are one day off.
    expect(nepalDateTime(Date.parse('2026-10-18T06:00:00.000Z'), 'ne')).toBe('२०८३ कात्तिक १, ११:४५')
  })

  it('falls back to the Gregorian date outside the converter’s years', () => {
    expect(nepalDateTime(Date.parse('2150-01-01T00:00:00.000Z'), 'ne')).toBe('२१५०-०१-०१, ०५:४५')
  })
})
