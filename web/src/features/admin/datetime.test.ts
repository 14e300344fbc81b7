import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isoToLocalInput, localInputToIso } from './datetime'

// Kathmandu is UTC+05:45 with no daylight saving: a zone where "local" and "UTC" differ by an odd amount.
const originalTz = process.env.TZ
beforeAll(() => {
  process.env.TZ = 'Asia/Kathmandu'
})
afterAll(() => {
  process.env.TZ = originalTz
})

describe('isoToLocalInput', () => {
  it('shows a UTC timestamp in local time, to the minute', () => {
    expect(isoToLocalInput('2026-11-22T07:00:00.000Z')).toBe('2026-11-22T12:45')
  })
  it('crosses midnight into the next local day', () => {
    expect(isoToLocalInput('2026-12-31T18:30:00Z')).toBe('2027-01-01T00:15')
  })
  it('reads timestamps with any offset', () => {
    expect(isoToLocalInput('2026-11-22T12:45:00+05:45')).toBe('2026-11-22T12:45')
  })
  it('gives an empty value for no time or a malformed one', () => {
    expect(isoToLocalInput(null)).toBe('')
    expect(isoToLocalInput(undefined)).toBe('')
    expect(isoToLocalInput('not a date')).toBe('')
  })
})

describe('localInputToIso', () => {
  it('reads the picker value as local time and answers UTC with Z', () => {
    expect(localInputToIso('2026-11-22T12:45')).toBe('2026-11-22T07:00:00.000Z')
  })
  it('goes back a day when local midnight is the previous day in UTC', () => {
    expect(localInputToIso('2027-01-01T00:15')).toBe('2026-12-31T18:30:00.000Z')
  })
  it('accepts seconds and milliseconds', () => {
    expect(localInputToIso('2026-11-22T12:45:30')).toBe('2026-11-22T07:00:30.000Z')
    expect(localInputToIso('2026-11-22T12:45:30.5')).toBe('2026-11-22T07:00:30.500Z')
  })
  it('round-trips with isoToLocalInput', () => {
    const iso = '2026-03-15T23:59:00.000Z'
    expect(localInputToIso(isoToLocalInput(iso))).toBe(iso)
  })
  it('gives null for an empty, partial or impossible value', () => {
    expect(localInputToIso('')).toBeNull()
    expect(localInputToIso('2026-11-22')).toBeNull()
    expect(localInputToIso('2026-02-30T10:00')).toBeNull()
    expect(localInputToIso('2026-11-22T24:00')).toBeNull()
  })
  it('keeps years below 100 as written', () => {
    // (Time zones before 1920 used local mean time, so only the round trip is exact.)
    const iso = localInputToIso('0099-06-01T05:45')
    expect(iso).toMatch(/^0099-06-01T/)
    expect(isoToLocalInput(iso)).toBe('0099-06-01T05:45')
  })
})
