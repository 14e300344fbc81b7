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
  ]
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
})
