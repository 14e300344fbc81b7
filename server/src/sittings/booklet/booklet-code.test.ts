import { describe, expect, it } from 'vitest'
import { signSheetCode } from '../sheet/sheet-code'
import { buildBookletLayout, BookletLayoutError, MAX_BOOKLET_QUESTIONS } from './booklet-layout'
import { bookletSheetKey, signBookletCode, verifyBookletCode, type BookletCode } from './booklet-code'
import { renderBookletSvg } from './booklet-svg'

const secret = 'booklet-test-secret'
const codes: BookletCode[] = [
  { sittingId: 7, kind: 'roster', page: 3, rollNumber: 12, userId: 345 },
  { sittingId: 7, kind: 'blank', page: 1, serial: 9 },
  { sittingId: 7, kind: 'spare', serial: 40 },
]

describe('booklet page codes', () => {
  it('sign and verify every kind, each naming its own printed page', () => {
    for (const code of codes)
      expect(verifyBookletCode(signBookletCode(code, secret), secret, 7)).toEqual({ ok: true, code })
    expect(codes.map(bookletSheetKey)).toEqual(['W3R12U345', 'W1B9', 'X40'])
  })

  it('refuse an altered, foreign or answer-sheet code', () => {
    const payload = signBookletCode(codes[0]!, secret)
    const otherLearner = payload.replace('U345', 'U346')
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
