import QRCode from 'qrcode'
import { describe, expect, it } from 'vitest'
import { signSheetCode, verifySheetCode } from './sheet-code'

const secret = 'a-long-server-secret-for-tests'

describe('sheet codes', () => {
  it('round-trips a roster sheet naming its learner and a blank one, in QR alphanumeric characters only', () => {
    const roster = signSheetCode({ sittingId: 42, kind: 'roster', rollNumber: 123, userId: 5071 }, secret)
    const blank = signSheetCode({ sittingId: 42, kind: 'blank', serial: 7 }, secret)
    expect(roster).toMatch(/^[0-9A-Z:]+$/)
    expect(verifySheetCode(roster, secret, 42)).toEqual({
      ok: true,
      code: { sittingId: 42, kind: 'roster', rollNumber: 123, userId: 5071 },
    })
    expect(verifySheetCode(blank, secret, 42)).toEqual({ ok: true, code: { sittingId: 42, kind: 'blank', serial: 7 } })
  })

  it('fits the version 3 code the sheet prints up to a million sittings and a hundred million learners', () => {
    const largest = signSheetCode(
      { sittingId: 999_999, kind: 'roster', rollNumber: 999_999, userId: 99_999_999 },
      secret,
    )
    expect(largest.length).toBeLessThanOrEqual(47)
    expect(QRCode.create(largest, { errorCorrectionLevel: 'Q' }).version).toBeLessThanOrEqual(3)
  })

  it('reads a roster sheet printed before sheets named their learner as naming none', () => {
    const old = signSheetCode({ sittingId: 42, kind: 'roster', rollNumber: 123, userId: null }, secret)
    expect(old).toMatch(/^QZ1:42:R123:[A-Z2-7]{16}$/)
    expect(verifySheetCode(old, secret, 42)).toEqual({
      ok: true,
      code: { sittingId: 42, kind: 'roster', rollNumber: 123, userId: null },
    })
  })

  it('refuses a forged code (signed with another secret)', () => {
    const forged = signSheetCode({ sittingId: 42, kind: 'roster', rollNumber: 1, userId: 9 }, 'guessed-secret')
    expect(verifySheetCode(forged, secret, 42)).toEqual({ ok: false, refusal: 'forged' })
  })

  it('refuses an altered code: another roll number or learner, another sitting, a changed mac', () => {
    const genuine = signSheetCode({ sittingId: 42, kind: 'roster', rollNumber: 1, userId: 9 }, secret)
    expect(verifySheetCode(genuine.replace(':R1U9:', ':R2U9:'), secret, 42)).toEqual({ ok: false, refusal: 'forged' })
    expect(verifySheetCode(genuine.replace(':R1U9:', ':R1U8:'), secret, 42)).toEqual({ ok: false, refusal: 'forged' })
    expect(verifySheetCode(genuine.replace(':R1U9:', ':R1:'), secret, 42)).toEqual({ ok: false, refusal: 'forged' })
    expect(verifySheetCode(genuine.replace('QZ1:42:', 'QZ1:43:'), secret, 43)).toEqual({ ok: false, refusal: 'forged' })
    expect(verifySheetCode(genuine.replace(':R1U9:', ':B1:'), secret, 42)).toEqual({ ok: false, refusal: 'forged' })
    const last = genuine.at(-1) === 'A' ? 'B' : 'A'
    expect(verifySheetCode(genuine.slice(0, -1) + last, secret, 42)).toEqual({ ok: false, refusal: 'forged' })
  })

  it('refuses a genuine code of another sitting', () => {
    const foreign = signSheetCode({ sittingId: 41, kind: 'roster', rollNumber: 1, userId: 9 }, secret)
    expect(verifySheetCode(foreign, secret, 42)).toEqual({ ok: false, refusal: 'foreign' })
  })

  it('refuses what is not a sheet code at all, whatever it is', () => {
    for (const junk of [
      '',
      'https://example.com',
      'QZ1:42:R1',
      'QZ1:0:R1:AAAAAAAAAAAAAAAA',
      'QZ1:42:R1234567:AAAAAAAAAAAAAAAA',
      'QZ1:42:R1U0:AAAAAAAAAAAAAAAA',
      'QZ1:42:B1U9:AAAAAAAAAAAAAAAA',
      'x'.repeat(10_000),
    ])
      expect(verifySheetCode(junk, secret, 42)).toEqual({ ok: false, refusal: 'malformed' })
    expect(verifySheetCode(undefined as unknown as string, secret, 42)).toEqual({ ok: false, refusal: 'malformed' })
  })

  it('will not sign a roll number the grid cannot hold', () => {
    expect(() => signSheetCode({ sittingId: 1, kind: 'roster', rollNumber: 1_000_000, userId: 1 }, secret)).toThrow(
      RangeError,
    )
  })
})
