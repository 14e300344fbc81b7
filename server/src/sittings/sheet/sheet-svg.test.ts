import jsQR from 'jsqr'
import sharp from 'sharp'
import { XMLValidator } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { signSheetCode } from './sheet-code'
import { buildSheetLayout } from './sheet-layout'
import { renderSheetSvg } from './sheet-svg'

const layout = buildSheetLayout({ questionCount: 120, optionCounts: Array(120).fill(4), labels: 'devanagari' })
const qrPayload = signSheetCode({ sittingId: 9, kind: 'roster', rollNumber: 4521, userId: 7 }, 'secret')
const svg = renderSheetSvg({
  layout,
  labels: 'devanagari',
  qrPayload,
  quizTitle: 'Mock <1> & "final" — लोकसेवा',
  holder: { kind: 'roster', learnerName: "O'Brien </svg> सीता", rollNumber: 4521, set: 'C' },
})

describe('renderSheetSvg', () => {
  it('is well-formed A4 in millimetres, with names escaped and Devanagari kept', () => {
    expect(XMLValidator.validate(svg)).toBe(true)
    expect(svg).toContain('width="210mm" height="297mm" viewBox="0 0 210 297"')
    expect(svg).toContain('Mock &lt;1&gt; &amp; &quot;final&quot; — लोकसेवा')
    expect(svg).toContain('O&apos;Brien &lt;/svg&gt; सीता')
    expect(svg).toContain('Roll number 004521')
    expect(svg).toContain('>घ<')
  })

  it("fills the roster learner's roll digits and set; a blank sheet fills none and shows its serial", () => {
    const filled = (text: string) => (text.match(/fill="#000" stroke=/g) ?? []).length
    expect(filled(svg)).toBe(7)
    const blank = renderSheetSvg({
      layout,
      labels: 'latin',
      qrPayload,
      quizTitle: 'Mock',
      holder: { kind: 'blank', serial: 31 },
    })
    expect(filled(blank)).toBe(0)
    expect(blank).toContain('Sheet 31')
  })

  it('prints a QR code that decodes to the signed payload', async () => {
    const { data, info } = await sharp(Buffer.from(svg), { density: 200 })
      .flatten({ background: '#fff' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
    const found = jsQR(new Uint8ClampedArray(data), info.width, info.height)
    expect(found?.data).toBe(qrPayload)
  })

  it('draws a numeric grid with its number, a minus, digits and the point, all empty (decision 129)', () => {
    const gridLayout = buildSheetLayout({
      questionCount: 1,
      optionCounts: [4],
      labels: 'latin',
      numeric: [{ number: 2, whole: 2, fraction: 1 }],
    })
    const drawn = renderSheetSvg({
      layout: gridLayout,
      labels: 'latin',
      qrPayload,
      quizTitle: 'JEE mock',
      holder: { kind: 'blank', serial: 3 },
    })
    expect(XMLValidator.validate(drawn)).toBe(true)
    expect((drawn.match(/fill="#000" stroke=/g) ?? []).length).toBe(0)
    // 60 roll, 4 set, 4 options, then the grid: a sign, 3 x 10 digits and 2 places of the point.
    expect((drawn.match(/<circle /g) ?? []).length).toBe(60 + 4 + 4 + 1 + 30 + 2)
    expect(drawn).toContain('>−<')
    expect((drawn.match(/>\.</g) ?? []).length).toBe(2)
    const sign = gridLayout.numeric[0]!.columns[0]!.bubbles[0]!
    expect(drawn).toContain(`text-anchor="end">2<`)
    expect(drawn).toContain(`cx="${sign.x_mm}" cy="${sign.y_mm}"`)
    expect(drawn).toContain('− if negative')
  })
})
