import { describe, expect, it } from 'vitest'
import { signSheetCode, verifySheetCode } from './sheet-code'

const secret = 'a-long-server-secret-for-tests'

describe('sheet codes', () => {
  it('round-trips a roster sheet and a blank one, in QR alphanumeric characters only', () => {
    const roster = signSheetCode({ sittingId: 42, kind: 'roster', rollNumber: 123 }, secret)
    const blank = signSheetCode({ sittingId: 42, kind: 'blank', serial: 7 }, secret)
    expect(roster).toMatch(/^[0-9A-Z:]+$/)
    expect(roster.length).toBeLessThanOrEqual(47)
    expect(verifySheetCode(roster, secret, 42)).toEqual({
      ok: true,
      code: { sittingId: 42, kind: 'roster', rollNumber: 123 },
    })
    expect(verifySheetCode(blank, secret, 42)).toEqual({ ok: true, code: { sittingId: 42, kind: 'blank', serial: 7 } })
  })

  it('refuses a forged code (signed with another secret)', () => {
    const forged = signSheetCode({ sittingId: 42, kind: 'roster', rollNumber: 1 }, 'guessed-secret')
    expect(verifySheetCode(forged, secret, 42)).toEqual({ ok: false, refusal: 'forged' })
  })

  it('refuses an altered code: another roll number, another sitting, a changed mac', () => {
    const genuine = signSheetCode({ sittingId: 42, kind: 'roster', rollNumber: 1 }, secret)
    expect(verifySheetCode(genuine.replace(':R1:', ':R2:'), secret, 42)).toEqual({ ok: false, refusal: 'forged' })
    expect(verifySheetCode(genuine.replace('QZ1:42:', 'QZ1:43:'), secret, 43)).toEqual({ ok: false, refusal: 'forged' })
    expect(verifySheetCode(genuine.replace(':R1:', ':B1:'), secret, 42)).toEqual({ ok: false, refusal: 'forged' })
    const last = genuine.at(-1) === 'A' ? 'B' : 'A'
    expect(verifySheetCode(genuine.slice(0, -1) + last, secret, 42)).toEqual({ ok: false, refusal: 'forged' })
  })

  it('refuses a genuine code of another sitting', () => {
    const foreign = signSheetCode({ sittingId: 41, kind: 'roster', rollNumber: 1 }, secret)
    expect(verifySheetCode(foreign, secret, 42)).toEqual({ ok: false, refusal: 'foreign' })
  })

  it('refuses what is not a sheet code at all, whatever it is', () => {
    for (const junk of [
      '',
      'https://example.com',
      'QZ1:42:R1',
      'QZ1:0:R1:AAAAAAAAAAAAAAAA',
      'QZ1:42:R1234567:AAAAAAAAAAAAAAAA',
      'x'.repeat(10_000),
    ])
      expect(verifySheetCode(junk, secret, 42)).toEqual({ ok: false, refusal: 'malformed' })
    expect(verifySheetCode(undefined as unknown as string, secret, 42)).toEqual({ ok: false, refusal: 'malformed' })
  })

  it('will not sign a roll number the grid cannot hold', () => {
    expect(() => signSheetCode({ sittingId: 1, kind: 'roster', rollNumber: 1_000_000 }, secret)).toThrow(RangeError)
  })
})
