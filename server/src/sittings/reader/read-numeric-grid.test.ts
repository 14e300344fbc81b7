import { describe, expect, it } from 'vitest'
import {
  gridMarksFor,
  markedSheetSvg,
  photographSheet,
  plainPhoto,
  sheetLayoutOf,
  type GridMark,
  type SheetSpec,
} from '../../../test/fixtures/sheet-photos'
import { composeNumber, readSheet, type GridColumnRead } from './read-sheet'
import { drawReaderView } from './reader-view'

// Decision 129: a numeric question's grid, read like the roll number.

const secret = 'grid-test-secret'
const size = { whole: 2, fraction: 1 }
const numeric = [61, 62, 63, 64, 65].map((number) => ({ number, ...size }))
const optionCounts = Array.from({ length: 60 }, () => 4)

function sheet(gridMarks: GridMark[]): SheetSpec {
  return {
    secret,
    sittingId: 12,
    labels: 'latin',
    optionCounts,
    numeric,
    holder: { kind: 'roster', learnerName: 'Sita Sharma', rollNumber: 402, set: 'A' },
    learnerId: 3105,
    marks: [
      { question: 0, option: 1, style: 'pen' },
      { question: 59, option: 2, style: 'pen' },
    ],
    gridMarks,
  }
}

describe('numeric grids read from a photo', () => {
  it('reads a signed decimal, a whole number and a blank grid; flags two marks or a faint one in a column', async () => {
    const spec = sheet([
      ...gridMarksFor(0, size, '-12.5'),
      ...gridMarksFor(1, size, '7', 'pencil'),
      // Grid 2 left blank. Grid 3: two digits in its first column.
      ...gridMarksFor(3, size, '34.5'),
      { grid: 3, column: 1, bubble: 8, style: 'pen' },
      // Grid 4: a faint mark in a column beside clear ones.
      ...gridMarksFor(4, size, '0.5'),
      { grid: 4, column: 1, bubble: 6, style: 'light' },
    ])
    const jpeg = await photographSheet(markedSheetSvg(spec, 4), { ...plainPhoto, seed: 4 })
    const result = await readSheet(jpeg, { secret, sittingId: 12, layoutFor: () => sheetLayoutOf(spec) })
    if (!result.ok) throw new Error(`refused: ${result.message}`)
    expect(result.answers![0]!.answer).toBe('B')
    expect(result.answers![59]!.answer).toBe('C')
    const byNumber = Object.fromEntries(result.numeric!.map((grid) => [grid.number, grid.answer]))
    expect(byNumber).toEqual({
      61: '-12.5',
      62: '7',
      63: null,
      64: { flag: 'numeric_unclear', marks: ['3/8', '4', '.', '5'] },
      65: { flag: 'numeric_unclear', marks: ['6', '0', '.', '5'] },
    })
    // Where the grids are, in fractions of the photo: the first below the second column's 20 rows, the next three
    // down the third column, the last at the top of the fourth.
    const boxes = result.numeric!.map((grid) => grid.box)
    const row41 = result.answers![40]!.box
    expect(boxes[0]!.y).toBeGreaterThan(row41.y + 0.2)
    expect(Math.abs(boxes[0]!.x - row41.x)).toBeLessThan(0.05)
    expect(boxes[2]!.y).toBeGreaterThan(boxes[1]!.y + boxes[1]!.height * 0.9)
    expect(boxes[3]!.y).toBeGreaterThan(boxes[2]!.y + boxes[2]!.height * 0.9)
    expect(boxes[4]!.x).toBeGreaterThan(boxes[1]!.x + boxes[1]!.width)
    expect(Math.abs(boxes[4]!.y - boxes[1]!.y)).toBeLessThan(0.02)
    // The reader's view draws the grids' regions and bubbles too.
    const view = await drawReaderView(jpeg, sheetLayoutOf(spec))
    expect(Buffer.isBuffer(view)).toBe(true)
  }, 60_000)
})

describe('composeNumber', () => {
  const sign = (marked: boolean): GridColumnRead => ({
    kind: 'sign',
    choice: marked ? { kind: 'one', value: 0 } : { kind: 'none' },
  })
  const digit = (value: number | null): GridColumnRead => ({
    kind: 'digit',
    choice: value === null ? { kind: 'none' } : { kind: 'one', value },
  })
  const point = (at: number | null): GridColumnRead => ({
    kind: 'point',
    choice: at === null ? { kind: 'none' } : { kind: 'one', value: at },
  })
  const grid = (negative: boolean, digits: (number | null)[], at: number | null) => [
    sign(negative),
    ...digits.map(digit),
    point(at),
  ]

  it('composes the number in its shortest form, the point anywhere touching the digits', () => {
    expect(composeNumber(grid(true, [1, 2, 5], 1))).toBe('-12.5')
    expect(composeNumber(grid(false, [null, 3, 1, 4], 1))).toBe('3.14')
    expect(composeNumber(grid(false, [3, 1, 4, null], 0))).toBe('3.14')
    expect(composeNumber(grid(false, [null, 0, 7], null))).toBe('7')
    expect(composeNumber(grid(false, [null, 5, null], 0))).toBe('0.5')
    expect(composeNumber(grid(false, [1, 2, null], 1))).toBe('12')
    expect(composeNumber(grid(true, [null, 0, null], null))).toBe('0')
  })

  it('is unanswered when nothing is marked, and unclear on a gap, a lone sign or point, or a point away', () => {
    expect(composeNumber(grid(false, [null, null, null], null))).toBeNull()
    const unclear = { flag: 'numeric_unclear' }
    expect(composeNumber(grid(false, [1, null, 5], null))).toMatchObject(unclear)
    expect(composeNumber(grid(true, [null, null, null], null))).toMatchObject({ ...unclear, marks: ['−'] })
    expect(composeNumber(grid(false, [null, null, null], 1))).toMatchObject({ ...unclear, marks: ['.'] })
    expect(composeNumber(grid(false, [null, null, 5], 0))).toMatchObject({ ...unclear, marks: ['.', '5'] })
    expect(composeNumber(grid(false, [5, null, null], 1))).toMatchObject({ ...unclear, marks: ['5', '.'] })
    expect(
      composeNumber([sign(false), digit(1), { kind: 'digit', choice: { kind: 'unclear', marks: [4] } }, point(null)]),
    ).toEqual({ flag: 'numeric_unclear', marks: ['1', '4'] })
    expect(
      composeNumber([sign(false), digit(1), digit(2), { kind: 'point', choice: { kind: 'multiple', marks: [0, 1] } }]),
    ).toEqual({ flag: 'numeric_unclear', marks: ['1', '.', '2', '.'] })
  })
})
