import { describe, expect, it } from 'vitest'
import { mac, signSheetCode } from '../sheet/sheet-code'
import { buildBookletLayout, BookletLayoutError, MAX_BOOKLET_QUESTIONS } from './booklet-layout'
import {
  bookletSheetKey,
  isPrintedFor,
  learnerTag,
  printedLearner,
  readBack,
  signBookletCode,
  verifyBookletCode,
  type PrintedBooklet,
} from './booklet-code'
import { renderBookletSvg } from './booklet-svg'

const secret = 'booklet-test-secret'
const codes: PrintedBooklet[] = [
  { sittingId: 7, kind: 'roster', page: 3, rollNumber: 12, userId: 345 },
  { sittingId: 7, kind: 'blank', page: 1, serial: 9 },
  { sittingId: 7, kind: 'spare', serial: 40 },
]

describe('booklet page codes', () => {
  it('sign and verify every kind, each naming its own printed page', () => {
    for (const code of codes)
      expect(verifyBookletCode(signBookletCode(code, secret), secret, 7)).toEqual({
        ok: true,
        code: readBack(code, secret),
      })
    const tag = learnerTag(secret, 7, 12, 345)
    expect(tag).toMatch(/^[A-Z2-7]{6}$/)
    expect(codes.map((code) => bookletSheetKey(readBack(code, secret)))).toEqual([`W3R12K${tag}`, 'W1B9', 'X40'])
  })

  it("carry no user id: a roster page's learner is a keyed tag, checked against the roster (decision 089)", () => {
    const payload = signBookletCode(codes[0]!, secret)
    expect(payload).not.toContain('345')
    expect(payload).toMatch(/^QZ1:7:W3R12K[A-Z2-7]{6}:[A-Z2-7]{16}$/)
    const read = verifyBookletCode(payload, secret, 7)
    if (!read.ok || read.code.kind !== 'roster') throw new Error('a roster code')
    expect(isPrintedFor(read.code, 345, secret)).toBe(true)
    expect(isPrintedFor(read.code, 346, secret)).toBe(false)
    // Another sitting or roll gives the same learner another tag: a tag names nobody across sittings.
    expect(learnerTag(secret, 8, 12, 345)).not.toBe(learnerTag(secret, 7, 12, 345))
    expect(learnerTag(secret, 7, 13, 345)).not.toBe(learnerTag(secret, 7, 12, 345))
    // The roll's holder now, the learner moved to another roll since printing, or nobody.
    const at = (user: number, roll: number) => ({ user_id: user, roll_number: roll })
    expect(printedLearner(read.code, [at(345, 12)], secret)).toEqual({ entry: at(345, 12), moved: false })
    expect(printedLearner(read.code, [at(346, 12), at(345, 13)], secret)).toEqual({ entry: at(345, 13), moved: true })
    expect(printedLearner(read.code, [at(346, 12)], secret)).toBeNull()
  })

  it('still read a roster page printed with its learner id before decision 089', () => {
    const text = 'QZ1:7:W3R12U345'
    const read = verifyBookletCode(`${text}:${mac(text, secret)}`, secret, 7)
    expect(read).toEqual({
      ok: true,
      code: { sittingId: 7, kind: 'roster', page: 3, rollNumber: 12, learner: { userId: 345 } },
    })
    if (!read.ok || read.code.kind !== 'roster') throw new Error('a roster code')
    expect(bookletSheetKey(read.code)).toBe('W3R12U345')
    expect(isPrintedFor(read.code, 345, secret)).toBe(true)
    const forged = `QZ1:7:W3R12U346:${mac(text, secret)}`
    expect(verifyBookletCode(forged, secret, 7)).toEqual({ ok: false, refusal: 'forged' })
  })

  it('refuse an altered, foreign or answer-sheet code', () => {
    const payload = signBookletCode(codes[0]!, secret)
    const otherLearner = payload.replace(/K[A-Z2-7]{6}/, `K${learnerTag(secret, 7, 12, 346)}`)
    expect(verifyBookletCode(otherLearner, secret, 7)).toEqual({ ok: false, refusal: 'forged' })
    expect(verifyBookletCode(payload, 'another-secret', 7)).toEqual({ ok: false, refusal: 'forged' })
    expect(verifyBookletCode(payload, secret, 8)).toEqual({ ok: false, refusal: 'foreign' })
    const sheet = signSheetCode({ sittingId: 7, kind: 'roster', rollNumber: 12, userId: 345 }, secret)
    expect(verifyBookletCode(sheet, secret, 7)).toEqual({ ok: false, refusal: 'malformed' })
    expect(verifyBookletCode('QZ1:7:W17R1U1:AAAAAAAAAAAAAAAA', secret, 7)).toEqual({ ok: false, refusal: 'malformed' })
  })

  it('fit the version 3 code the sheets print for the largest ids in use', () => {
    const longest = signBookletCode(
      { sittingId: 999_999, kind: 'roster', page: 16, rollNumber: 999_999, userId: 99_999_999 },
      secret,
    )
    expect(longest.length).toBeLessThanOrEqual(47)
    expect(longest).toMatch(/^[0-9A-Z:]+$/)
  })
})

describe('booklet layout and page', () => {
  it('puts corners and code where the answer sheet has them, and one bubble a written question', () => {
    const layout = buildBookletLayout({ numbers: [4, 5, 6], rollGrid: false })
    expect(layout.markers.map((m) => [m.x_mm, m.y_mm])).toEqual([
      [11, 11],
      [199, 11],
      [199, 286],
      [11, 286],
    ])
    expect(layout.questions.map((q) => q.number)).toEqual([4, 5, 6])
    expect(layout.roll).toEqual([])
    expect(buildBookletLayout({ numbers: [1], rollGrid: true }).roll).toHaveLength(6)
    const full = buildBookletLayout({
      numbers: Array.from({ length: MAX_BOOKLET_QUESTIONS }, (_, i) => i + 1),
      rollGrid: true,
    })
    const last = full.questions.at(-1)!
    expect(last.x_mm + last.r_mm).toBeLessThan(199 - 4.5)
    expect(last.y_mm + last.r_mm).toBeLessThan(full.answer_area.top_mm)
    expect(() => buildBookletLayout({ numbers: [], rollGrid: false })).toThrow(BookletLayoutError)
    expect(() => buildBookletLayout({ numbers: [2, 2], rollGrid: false })).toThrow(BookletLayoutError)
  })

  it('prints the page number, the learner and, on a first page, the instructions in both languages', () => {
    const layout = buildBookletLayout({ numbers: [4, 5], rollGrid: false })
    const svg = (page: number) =>
      renderBookletSvg({
        layout,
        qrPayload: signBookletCode(codes[0]!, secret),
        quizTitle: 'Section Officer <written>',
        holder: { kind: 'roster', learnerName: 'Sita & Ram', rollNumber: 12 },
        page: { number: page, of: 4 },
      })
    expect(svg(1)).toContain('Page 1 / 4')
    expect(svg(1)).toContain('Sita &amp; Ram')
    expect(svg(1)).toContain('&lt;written&gt;')
    expect(svg(1)).toContain('Roll number 000012')
    expect(svg(1)).toContain('निरीक्षकसँग')
    expect(svg(2)).not.toContain('निरीक्षकसँग')
  })
})
