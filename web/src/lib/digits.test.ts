import { describe, expect, it } from 'vitest'
import { fromDevanagariDigits, toDevanagariDigits } from './digits'

describe('digits', () => {
  it('writes Latin digits in Devanagari', () => expect(toDevanagariDigits('2026-11')).toBe('२०२६-११'))
  it('reads Devanagari digits as Latin ones and leaves the rest', () =>
    expect(fromDevanagariDigits('९८४-१२३ abc')).toBe('984-123 abc'))
  it('goes both ways for every digit', () =>
    expect(fromDevanagariDigits(toDevanagariDigits('0123456789'))).toBe('0123456789'))
})
