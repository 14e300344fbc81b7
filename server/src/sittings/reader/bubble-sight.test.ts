import { describe, expect, it } from 'vitest'
import { markedSheetSvg, photographSheet, sheetLayoutOf, type SheetSpec } from '../../../test/fixtures/sheet-photos'
import { sightColumn } from './bubble-sight'
import { loadGrey, locatePage, readSheet, REFUSAL_MESSAGES, type LocatedPage } from './read-sheet'
import { ROW_PITCH_MM } from '../sheet/sheet-layout'

// A column of questions found again by its outlines must sit at its own rows: one a row over has rings a row past
// one of its ends (issue 59, docs/decisions/074).
const spec: SheetSpec = {
  secret: 'sight-secret',
  sittingId: 3,
  labels: 'latin',
  optionCounts: Array.from({ length: 40 }, () => 4),
  holder: { kind: 'roster', learnerName: 'Gita Rai', rollNumber: 7, set: 'A' },
  learnerId: 100_007,
  marks: Array.from({ length: 40 }, (_, q) => ({ question: q, option: q % 4, style: 'pen' as const })),
}
const layout = sheetLayoutOf(spec)

const flatJpeg = () =>
  photographSheet(markedSheetSvg(spec, 1), {
    seed: 1,
    megapixels: 2.5,
    fill: 0.8,
    tiltDeg: 5,
    rotation: 0,
    smallAngleDeg: 2,
    light: 'even',
    blurSigma: 0.3,
    jpegQuality: 85,
  })

async function flatPhoto() {
  const image = await loadGrey(await flatJpeg())
  if (typeof image === 'string') throw new Error(image)
  const located = locatePage(image)
  if (typeof located === 'string') throw new Error(located)
  return { image, toImage: (located as LocatedPage).toImage }
}

/** The column's questions from `first` on, in blocks of four rows. */
const blocksFrom = (first: number) => {
  const blocks = []
  for (let i = first; i < layout.questions.length; i += 4)
    blocks.push(layout.questions.slice(i, Math.min(i + 4, layout.questions.length)).flatMap((q) => q.options))
  return blocks
}

describe('sightColumn', () => {
  it('takes a column at its own rows when its search starts a row off and a row over matches as well', async () => {
    const { image, toImage } = await flatPhoto()
    for (const from of [
      { x: 0, y: ROW_PITCH_MM },
      { x: 0, y: -ROW_PITCH_MM },
    ]) {
      const column = sightColumn(image, toImage, blocksFrom(0), from)
      expect(column.endsClear).toBe(true)
      expect(Math.abs(column.start.y)).toBeLessThan(1)
      const found = column.blocks.flat()
      expect(found).toHaveLength(160)
      for (const s of found) expect(Math.abs(s.at.y_mm - s.bubble.y_mm)).toBeLessThan(1)
    }
  })

  it('says a column is not clear when rings a row past its end are found wherever it is placed', async () => {
    const { image, toImage } = await flatPhoto()
    // The column less its first row: the printed first row is a row past its top, at its own place and any other.
    const column = sightColumn(image, toImage, blocksFrom(1), { x: 0, y: 0 })
    expect(column.endsClear).toBe(false)
    expect(sightColumn(image, toImage, blocksFrom(0), { x: 0, y: 0 }).endsClear).toBe(true)
  })

  it('has the reader refuse the photo "Lay the sheet flat" when a column cannot be placed at its own rows', async () => {
    // Read against the sheet's layout less its first question: that column has rings a row past its top wherever
    // it is placed, as a column of a badly bent sheet would.
    const result = await readSheet(await flatJpeg(), {
      secret: spec.secret,
      sittingId: spec.sittingId,
      layoutFor: () => ({ ...layout, questions: layout.questions.slice(1) }),
    })
    expect(result).toEqual({ ok: false, refusal: 'not_flat', message: REFUSAL_MESSAGES.not_flat })
    const whole = await readSheet(await flatJpeg(), {
      secret: spec.secret,
      sittingId: spec.sittingId,
      layoutFor: () => layout,
    })
    expect(whole.ok).toBe(true)
  })
})
