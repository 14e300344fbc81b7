import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import {
  markedSheetSvg,
  photographNonSheet,
  photographSheet,
  sheetLayoutOf,
  type Mark,
  type PhotoSpec,
  type SheetSpec,
} from '../../../test/fixtures/sheet-photos'
import { project } from './homography'
import type { PhotoBox } from './photo-box'
import { loadGrey, locatePage, readSheet, REFUSAL_MESSAGES, type ReadSheetOptions } from './read-sheet'

const secret = 'reader-test-secret'
const optionCounts = Array.from({ length: 60 }, (_, i) => (i % 10 === 9 ? 5 : 4))
const letters = 'ABCDE'

/** Question q (0-based) answered with option q % 4 in `style`, every one of the 60. */
const allAnswered = (style: Mark['style']): Mark[] =>
  optionCounts.map((_, q) => ({ question: q, option: q % 4, style }))

function sheet(marks: Mark[], overrides: Partial<SheetSpec> = {}): SheetSpec {
  return {
    secret,
    sittingId: 12,
    labels: 'latin',
    optionCounts,
    holder: { kind: 'roster', learnerName: 'Sita Sharma', rollNumber: 402, set: 'B' },
    learnerId: 3105,
    marks,
    ...overrides,
  }
}

const plain: PhotoSpec = {
  seed: 1,
  megapixels: 2.5,
  fill: 0.8,
  tiltDeg: 5,
  rotation: 0,
  smallAngleDeg: 2,
  light: 'even',
  blurSigma: 0,
  jpegQuality: 85,
}

const options = (spec: SheetSpec, sittingId = 12): ReadSheetOptions => ({
  secret,
  sittingId,
  layoutFor: () => sheetLayoutOf(spec),
})

async function read(spec: SheetSpec, photo: Partial<PhotoSpec> = {}) {
  const jpeg = await photographSheet(markedSheetSvg(spec, photo.seed ?? 1), { ...plain, ...photo })
  return readSheet(jpeg, options(spec))
}

async function answersOf(spec: SheetSpec, photo: Partial<PhotoSpec> = {}) {
  const result = await read(spec, photo)
  if (!result.ok) throw new Error(`refused: ${result.message}`)
  return result
}

const expected = (marks: Mark[]) => optionCounts.map((_, q) => letters[marks.find((m) => m.question === q)!.option])

type Box = PhotoBox

const inside = (box: Box, p: { x: number; y: number }) =>
  p.x >= box.x && p.x <= box.x + box.width && p.y >= box.y && p.y <= box.y + box.height
/** How much of `a`'s height `b` covers: boxes are upright, so a row photographed slanted reaches into the next. */
const verticalOverlap = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)) / a.height

describe('readSheet', () => {
  it('reads clean pen marks, the roll number and set, and the verified code', async () => {
    const spec = sheet(allAnswered('pen'))
    const jpeg = await photographSheet(markedSheetSvg(spec, 1), plain)
    const result = await readSheet(jpeg, options(spec))
    if (!result.ok) throw new Error(`refused: ${result.message}`)
    expect(result.code).toEqual({ sittingId: 12, kind: 'roster', rollNumber: 402, userId: 3105 })
    expect(result.roll).toBe(402)
    expect(result.set).toBe('B')
    expect(result.answers!.map((a) => a.answer)).toEqual(expected(allAnswered('pen')))

    // Where the rows are, in fractions of the photo: question 1 upper left, 2 below it, slant aside apart.
    const [one, two] = [result.answers![0]!.box, result.answers![1]!.box]
    expect([one.turn, result.boxes.roll.turn, result.boxes.set.turn]).toEqual([0, 0, 0])
    expect(one.x + one.width).toBeLessThan(0.5)
    expect(one.y + one.height).toBeLessThan(0.5)
    expect(two.y).toBeGreaterThan(one.y + one.height / 2)
    expect(Math.abs(two.x - one.x)).toBeLessThan(0.02)
    expect(verticalOverlap(one, two)).toBeLessThan(0.35)
    // Each row's box holds every bubble of its row, whole, and no bubble of the rows beside it.
    const grey = await loadGrey(jpeg)
    const located = typeof grey === 'string' ? grey : locatePage(grey)
    if (typeof located === 'string' || typeof grey === 'string') throw new Error(`not placed: ${located}`)
    const layout = sheetLayoutOf(spec)
    const at = (x_mm: number, y_mm: number) => {
      const p = project(located.toImage, x_mm, y_mm)
      return { x: p.x / grey.width, y: p.y / grey.height }
    }
    const edges = (o: { x_mm: number; y_mm: number; r_mm: number }) => [
      at(o.x_mm - o.r_mm, o.y_mm),
      at(o.x_mm + o.r_mm, o.y_mm),
      at(o.x_mm, o.y_mm - o.r_mm),
      at(o.x_mm, o.y_mm + o.r_mm),
    ]
    for (const row of [0, 1, 39, 40, 59]) {
      const box = result.answers![row]!.box
      for (const o of layout.questions[row]!.options) expect(edges(o).every((p) => inside(box, p))).toBe(true)
      for (const neighbour of [row - 1, row + 1, row + 40, row - 40].filter((n) => n >= 0 && n < 60))
        for (const o of layout.questions[neighbour]!.options) expect(inside(box, at(o.x_mm, o.y_mm))).toBe(false)
    }
    for (const digit of layout.roll.flatMap((column) => column.digits))
      expect(edges(digit).every((p) => inside(result.boxes.roll, p))).toBe(true)
    for (const bubble of layout.set) expect(edges(bubble).every((p) => inside(result.boxes.set, p))).toBe(true)
    // The roll grid sits right of the first column, above the questions; the set row above the first question.
    expect(result.boxes.roll.x).toBeGreaterThan(one.x + one.width)
    expect(result.boxes.roll.y + result.boxes.roll.height).toBeLessThan(one.y)
    expect(result.boxes.set.y + result.boxes.set.height).toBeLessThanOrEqual(one.y)
  })

  it('reads pencil and blue pen under a gradient of light', async () => {
    const marks = optionCounts.map((_, q) => ({
      question: q,
      option: q % 4,
      style: q % 2 ? ('pencil' as const) : ('blue' as const),
    }))
    const result = await answersOf(sheet(marks), { light: 'gradient', seed: 2 })
    expect(result.answers!.map((a) => a.answer)).toEqual(expected(marks))
  })

  it('flags light marks as unclear and never reads them as blank or as another letter', async () => {
    const marks = allAnswered('light')
    const result = await answersOf(sheet(marks), { seed: 3 })
    result.answers!.forEach(({ answer }, q) => {
      const letter = letters[q % 4]!
      if (typeof answer === 'string') expect(answer).toBe(letter)
      else expect(answer).toEqual({ flag: 'unclear', marks: [letter] })
    })
    expect(result.answers!.filter((a) => typeof a.answer === 'object').length).toBeGreaterThan(30)
  })

  it('flags a double mark as multiple, naming both letters', async () => {
    const marks: Mark[] = [...allAnswered('pen'), { question: 7, option: 0, style: 'pen' }]
    const result = await answersOf(sheet(marks), { seed: 4 })
    expect(result.answers![7]!.answer).toEqual({ flag: 'multiple', marks: ['A', 'D'] })
    expect(result.answers!.filter((a) => typeof a.answer === 'object')).toHaveLength(1)
  })

  it('does not read stray dots or ticks as marks', async () => {
    const marks: Mark[] = optionCounts.flatMap((_, q) =>
      q < 30
        ? [
            { question: q, option: q % 4, style: 'pen' as const },
            { question: q, option: (q + 1) % 4, style: q % 2 ? ('tick' as const) : ('dot' as const) },
          ]
        : [{ question: q, option: q % 4, style: q % 2 ? ('tick' as const) : ('dot' as const) }],
    )
    const result = await answersOf(sheet(marks), { seed: 5 })
    result.answers!.forEach(({ answer }, q) => expect(answer).toBe(q < 30 ? letters[q % 4] : null))
  })

  it('reads a sheet photographed upside down, sideways, strongly tilted or in shadow', async () => {
    const marks = allAnswered('pen')
    for (const photo of [
      { rotation: 180, seed: 6 },
      { rotation: 90, smallAngleDeg: -6, seed: 7 },
      { rotation: 270, tiltDeg: 25, seed: 8, fill: 0.7, megapixels: 3 },
      { tiltDeg: 25, seed: 9, fill: 0.9 },
      { light: 'shadow', seed: 10, blurSigma: 1, jpegQuality: 60 },
    ] as const) {
      const result = await answersOf(sheet(marks), photo)
      expect(result.roll, JSON.stringify(photo)).toBe(402)
      // The way the page lies in the photo, for the close-up to stand the row up again.
      expect(result.answers![0]!.box.turn, JSON.stringify(photo)).toBe('rotation' in photo ? photo.rotation : 0)
      if (photo.rotation === 180) {
        // Upside down, question 1's row is in the photo's lower right, and question 2's above it.
        const [one, two] = [result.answers![0]!.box, result.answers![1]!.box]
        expect(one.x).toBeGreaterThan(0.5)
        expect(one.y).toBeGreaterThan(0.5)
        expect(two.y + two.height).toBeLessThan(one.y + one.height / 2)
        expect(verticalOverlap(one, two)).toBeLessThan(0.35)
      }
      expect(
        result.answers!.map((a) => a.answer),
        JSON.stringify(photo),
      ).toEqual(expected(marks))
    }
  })

  it("reads a walk-in's hand-filled roll number and set from a blank sheet", async () => {
    const spec = sheet(allAnswered('pen'), { holder: { kind: 'blank', serial: 88 }, handRoll: 123456, handSet: 'D' })
    const result = await answersOf(spec, { seed: 11 })
    expect(result.code).toEqual({ sittingId: 12, kind: 'blank', serial: 88 })
    expect(result.roll).toBe(123456)
    expect(result.set).toBe('D')
  })

  it('refuses a photo that is not a sheet, with the corners sentence', async () => {
    const result = await readSheet(await photographNonSheet(12, 2.5), options(sheet([])))
    expect(result).toEqual({ ok: false, refusal: 'corners', message: 'All four corner squares must be in the photo.' })
  })

  it('places the page by its own markers, not by a dark square on the table beyond a corner', async () => {
    // The failure this guards against: a larger quadrilateral through a square off the page, whose QR code still
    // decodes, misplaces every bubble by a few millimetres.
    const spec = sheet(allAnswered('pen'))
    const photo = { ...plain, fill: 0.45, tiltDeg: 12, seed: 16 }
    const jpeg = await photographSheet(markedSheetSvg(spec, 16), photo)
    const grey = await loadGrey(jpeg)
    const located = typeof grey === 'string' ? grey : locatePage(grey)
    if (typeof located === 'string' || typeof grey === 'string') throw new Error(`not placed: ${located}`)
    const { width, height } = await sharp(jpeg).metadata()
    const k = width! / grey.width
    const decoys = [
      [-9, -9],
      [219, -9],
      [219, 306],
      [-9, 306],
    ].flatMap(([x, y]) => {
      const centre = project(located.toImage, x!, y!)
      const side = Math.hypot(...(['x', 'y'] as const).map((a) => project(located.toImage, x! + 9, y!)[a] - centre[a]))
      const [cx, cy, s] = [centre.x * k, centre.y * k, side * k]
      if (cx - s < 0 || cy - s < 0 || cx + s > width! || cy + s > height!) return []
      return [{ left: Math.round(cx - s / 2), top: Math.round(cy - s / 2), size: Math.round(s) }]
    })
    expect(decoys.length).toBeGreaterThan(0)
    const decorated = await sharp(jpeg)
      .composite(
        decoys.map((d) => ({
          input: { create: { width: d.size, height: d.size, channels: 3, background: '#111' } },
          left: d.left,
          top: d.top,
        })),
      )
      .jpeg({ quality: 85 })
      .toBuffer()
    const result = await readSheet(decorated, options(spec))
    if (!result.ok) throw new Error(`refused: ${result.message}`)
    expect(result.answers!.map((a) => a.answer)).toEqual(expected(allAnswered('pen')))
  })

  it('refuses a photo with a corner cut off', async () => {
    for (const seed of [13, 17, 18]) {
      const result = await read(sheet(allAnswered('pen')), {
        cutCorner: true,
        seed,
        fill: 0.9,
        rotation: (90 * (seed % 4)) as PhotoSpec['rotation'],
      })
      expect(result, `seed ${seed}`).toEqual({ ok: false, refusal: 'corners', message: REFUSAL_MESSAGES.corners })
    }
  })

  it('refuses a dark photo and a badly blurred one, each with its sentence', async () => {
    expect(await read(sheet([]), { light: 'dark', seed: 14 })).toEqual({
      ok: false,
      refusal: 'dark',
      message: 'The photo is too dark.',
    })
    expect(await read(sheet([]), { blurSigma: 9, seed: 15 })).toEqual({
      ok: false,
      refusal: 'blurred',
      message: 'The photo is too blurred.',
    })
  })

  it('refuses a sheet of another sitting or signed with another secret', async () => {
    const spec = sheet([])
    const jpeg = await photographSheet(markedSheetSvg(spec, 1), plain)
    expect(await readSheet(jpeg, options(spec, 13))).toMatchObject({ ok: false, refusal: 'wrong_sitting' })
    expect(await readSheet(jpeg, { ...options(spec), secret: 'another' })).toMatchObject({
      ok: false,
      refusal: 'wrong_sitting',
    })
  })

  it('refuses a truncated JPEG, junk and an oversized canvas without throwing', async () => {
    const jpeg = await photographSheet(markedSheetSvg(sheet([]), 1), plain)
    const truncated = await readSheet(jpeg.subarray(0, Math.floor(jpeg.length / 2)), options(sheet([])))
    expect(truncated).toEqual({ ok: false, refusal: 'not_an_image', message: REFUSAL_MESSAGES.not_an_image })
    expect(await readSheet(Buffer.from('not an image'), options(sheet([])))).toMatchObject({ refusal: 'not_an_image' })
    expect(await readSheet(Buffer.alloc(0), options(sheet([])))).toMatchObject({ refusal: 'not_an_image' })
    // 8,000 x 7,000 pixels of one grey: a small file, refused from its header, never decoded.
    const png = await sharp({ create: { width: 8000, height: 7000, channels: 3, background: '#ccc' } })
      .png()
      .toBuffer()
    expect(await readSheet(png, options(sheet([])))).toMatchObject({ refusal: 'too_large' })
  })
})
