import { describe, expect, it } from 'vitest'
import { buildSheetLayout, SheetLayoutError, type SheetLayout } from './sheet-layout'

type Box = { name: string; left: number; top: number; right: number; bottom: number }

function boxes(layout: SheetLayout): Box[] {
  const square = (name: string, x: number, y: number, half: number) => ({
    name,
    left: x - half,
    top: y - half,
    right: x + half,
    bottom: y + half,
  })
  return [
    ...layout.markers.map((m, i) => square(`marker ${i}`, m.x_mm, m.y_mm, m.size_mm / 2)),
    // The QR code with its four-module quiet zone (a version 3 code has 29 modules).
    square('qr', layout.qr.x_mm, layout.qr.y_mm, layout.qr.size_mm / 2 + (4 * layout.qr.size_mm) / 29),
    ...layout.questions.flatMap((q) => q.options.map((o) => square(`q${q.number}${o.label}`, o.x_mm, o.y_mm, o.r_mm))),
    ...layout.roll.flatMap((c) => c.digits.map((d) => square(`roll ${c.column}:${d.digit}`, d.x_mm, d.y_mm, d.r_mm))),
    ...layout.set.map((s) => square(`set ${s.set}`, s.x_mm, s.y_mm, s.r_mm)),
    ...layout.numeric.flatMap((g) =>
      g.columns.flatMap((c, i) =>
        c.bubbles.map((b, j) => square(`grid ${g.question} ${c.kind}${i}:${j}`, b.x_mm, b.y_mm, b.r_mm)),
      ),
    ),
  ]
}

/** Every part inside the page with a margin, and no two touching (0.5 mm apart at least). */
function overlaps(layout: SheetLayout) {
  const all = boxes(layout)
  const outside = all.filter((box) => box.left < 5 || box.top < 5 || box.right > 205 || box.bottom > 292)
  const touching: string[] = outside.map((box) => `${box.name} outside`)
  for (let i = 0; i < all.length; i++)
    for (let j = i + 1; j < all.length; j++) {
      const a = all[i]!
      const b = all[j]!
      const apart =
        a.right + 0.5 <= b.left || b.right + 0.5 <= a.left || a.bottom + 0.5 <= b.top || b.bottom + 0.5 <= a.top
      if (!apart) touching.push(`${a.name} and ${b.name}`)
    }
  return touching
}

const full = buildSheetLayout({ questionCount: 200, optionCounts: Array(200).fill(5), labels: 'latin', sets: 4 })

describe('buildSheetLayout', () => {
  it('has the shape of API.md sheet-layout: A4, four markers, a QR square, rows, six roll columns and A-D', () => {
    expect(full.page).toEqual({ width_mm: 210, height_mm: 297 })
    expect(full.markers).toHaveLength(4)
    expect(full.qr).toEqual({ x_mm: expect.any(Number), y_mm: expect.any(Number), size_mm: expect.any(Number) })
    expect(full.questions).toHaveLength(200)
    expect(full.questions[0]!.options.map((o) => o.label)).toEqual(['A', 'B', 'C', 'D', 'E'])
    expect(full.roll.map((c) => c.column)).toEqual([0, 1, 2, 3, 4, 5])
    expect(full.roll.every((c) => c.digits.map((d) => d.digit).join('') === '0123456789')).toBe(true)
    expect(full.set.map((s) => s.set)).toEqual(['A', 'B', 'C', 'D'])
    // Most significant digit first: columns run left to right.
    expect(full.roll[0]!.digits[0]!.x_mm).toBeLessThan(full.roll[5]!.digits[0]!.x_mm)
  })

  it('keeps every part inside the page and apart from every other, with room for a tilted photo', () => {
    const all = boxes(full)
    for (const box of all) {
      expect(box.left, box.name).toBeGreaterThanOrEqual(5)
      expect(box.top, box.name).toBeGreaterThanOrEqual(5)
      expect(box.right, box.name).toBeLessThanOrEqual(205)
      expect(box.bottom, box.name).toBeLessThanOrEqual(292)
    }
    // Half a million pairs: collected, then asserted once (an expect a pair took 30 s on a loaded machine).
    const touching: string[] = []
    for (let i = 0; i < all.length; i++)
      for (let j = i + 1; j < all.length; j++) {
        const a = all[i]!
        const b = all[j]!
        const apart =
          a.right + 0.5 <= b.left || b.right + 0.5 <= a.left || a.bottom + 0.5 <= b.top || b.bottom + 0.5 <= a.top
        if (!apart) touching.push(`${a.name} and ${b.name}`)
      }
    expect(touching).toEqual([])
  })

  it('letters rows in Devanagari and gives each question its own number of options', () => {
    const layout = buildSheetLayout({ questionCount: 3, optionCounts: [2, 5, 4], labels: 'devanagari' })
    expect(layout.questions.map((q) => q.options.map((o) => o.label).join(''))).toEqual(['कख', 'कखगघङ', 'कखगघ'])
  })

  it('refuses what cannot be printed, naming it', () => {
    expect(() => buildSheetLayout({ questionCount: 201, optionCounts: Array(201).fill(4), labels: 'latin' })).toThrow(
      SheetLayoutError,
    )
    expect(() => buildSheetLayout({ questionCount: 2, optionCounts: [4, 6], labels: 'latin' })).toThrow(
      'Question 2 has 6 options',
    )
    expect(() => buildSheetLayout({ questionCount: 2, optionCounts: [4], labels: 'latin' })).toThrow(SheetLayoutError)
    expect(() => buildSheetLayout({ questionCount: 0, optionCounts: [], labels: 'latin' })).toThrow(SheetLayoutError)
    expect(() =>
      buildSheetLayout({ questionCount: 2, optionCounts: [4, 4], numbers: [3, 3], labels: 'latin' }),
    ).toThrow(SheetLayoutError)
    expect(() => buildSheetLayout({ questionCount: 2, optionCounts: [4, 4], numbers: [1], labels: 'latin' })).toThrow(
      SheetLayoutError,
    )
  })

  it("prints the paper's numbers beside packed rows when given them", () => {
    const layout = buildSheetLayout({ questionCount: 2, optionCounts: [4, 3], numbers: [2, 5], labels: 'latin' })
    expect(layout.questions.map((q) => q.number)).toEqual([2, 5])
    const plain = buildSheetLayout({ questionCount: 2, optionCounts: [4, 3], labels: 'latin' })
    expect(layout.questions.map((q) => q.options)).toEqual(plain.questions.map((q) => q.options))
  })

  describe('numeric grids (decision 129)', () => {
    const grids = buildSheetLayout({
      questionCount: 3,
      optionCounts: [4, 4, 4],
      numbers: [1, 2, 4],
      labels: 'latin',
      numeric: [
        { number: 3, whole: 2, fraction: 1 },
        { number: 5, whole: 4, fraction: 0 },
        { number: 6, whole: 6, fraction: 2 },
      ],
    })

    it('gives each a sign column, its digit columns 0-9 and, with decimals, the places of the point', () => {
      expect(grids.numeric.map((g) => g.question)).toEqual([3, 5, 6])
      const [first, integer, wide] = grids.numeric
      expect(first!.columns.map((c) => c.kind)).toEqual(['sign', 'digit', 'digit', 'digit', 'point'])
      expect(first!.columns[0]!.bubbles.map((b) => b.label)).toEqual(['−'])
      expect(first!.columns[1]!.bubbles.map((b) => b.label).join('')).toBe('0123456789')
      // The point's places lie between two digit columns, in the sign's row above the digits.
      const point = first!.columns[4]!.bubbles
      expect(point).toHaveLength(2)
      expect(point[0]!.x_mm).toBeCloseTo(
        (first!.columns[1]!.bubbles[0]!.x_mm + first!.columns[2]!.bubbles[0]!.x_mm) / 2,
      )
      expect(point[0]!.y_mm).toBe(first!.columns[0]!.bubbles[0]!.y_mm)
      expect(point[0]!.y_mm).toBeLessThan(first!.columns[1]!.bubbles[0]!.y_mm)
      expect(integer!.columns.map((c) => c.kind)).toEqual(['sign', 'digit', 'digit', 'digit', 'digit'])
      expect(wide!.columns.filter((c) => c.kind === 'digit')).toHaveLength(8)
      expect(wide!.columns.find((c) => c.kind === 'point')!.bubbles).toHaveLength(7)
      // Digit columns run left to right, most significant first, as the roll number's.
      const xs = first!.columns.filter((c) => c.kind === 'digit').map((c) => c.bubbles[0]!.x_mm)
      expect(xs).toEqual([...xs].sort((a, b) => a - b))
    })

    it('places them after the rows, inside the page and apart from every other part', () => {
      const lastRow = Math.max(...grids.questions.map((q) => q.options[0]!.y_mm))
      expect(grids.numeric[0]!.columns[0]!.bubbles[0]!.y_mm).toBeGreaterThan(lastRow)
      expect(overlaps(grids)).toEqual([])
      // A sheet of rows and grids filled to its last column.
      const packed = buildSheetLayout({
        questionCount: 80,
        optionCounts: Array(80).fill(5),
        labels: 'latin',
        numeric: Array.from({ length: 6 }, (_, i) => ({ number: 81 + i, whole: i < 3 ? 2 : 6, fraction: 2 })),
      })
      expect(packed.numeric).toHaveLength(6)
      expect(overlaps(packed)).toEqual([])
      // A sheet of grids only.
      const only = buildSheetLayout({
        questionCount: 0,
        optionCounts: [],
        labels: 'latin',
        numeric: Array.from({ length: 15 }, (_, i) => ({ number: i + 1, whole: 3, fraction: 1 })),
      })
      expect(only.numeric).toHaveLength(15)
      expect(overlaps(only)).toEqual([])
    })

    it('refuses a grid too wide, repeated, or without room on the sheet', () => {
      const with_ = (numeric: { number: number; whole: number; fraction: number }[], count = 1) =>
        buildSheetLayout({ questionCount: count, optionCounts: Array(count).fill(4), labels: 'latin', numeric })
      expect(() => with_([{ number: 2, whole: 6, fraction: 3 }])).toThrow('a grid prints 1 to 8')
      expect(() => with_([{ number: 2, whole: 0, fraction: 0 }])).toThrow(SheetLayoutError)
      expect(() =>
        with_([
          { number: 2, whole: 1, fraction: 0 },
          { number: 2, whole: 1, fraction: 0 },
        ]),
      ).toThrow(SheetLayoutError)
      expect(() => with_([{ number: 200, whole: 2, fraction: 0 }], 195)).toThrow('no room for question 200')
      expect(() =>
        with_(
          Array.from({ length: 16 }, (_, i) => ({ number: i + 2, whole: 2, fraction: 0 })),
          1,
        ),
      ).toThrow(SheetLayoutError)
    })
  })
})
