/** An answer sheet's geometry (A4, mm from the top left, centres), drawn and read alike: decision 055 "In the code". */

export type OptionLabels = 'latin' | 'devanagari'

export const SHEET_SETS = ['A', 'B', 'C', 'D'] as const
export type SheetSet = (typeof SHEET_SETS)[number]

export interface Bubble {
  x_mm: number
  y_mm: number
  r_mm: number
}

export type NumericColumnKind = 'sign' | 'digit' | 'point'

/** A numeric question's grid (decision 129): a sign column, digit columns 0-9, and where the point goes. */
export interface NumericGrid {
  question: number
  columns: { kind: NumericColumnKind; bubbles: (Bubble & { label: string })[] }[]
}

/** A numeric question's grid size: digit columns before and after where the point usually goes. */
export interface NumericGridSpec {
  number: number
  whole: number
  fraction: number
}

export interface SheetLayout {
  page: { width_mm: number; height_mm: number }
  markers: { x_mm: number; y_mm: number; size_mm: number }[]
  qr: { x_mm: number; y_mm: number; size_mm: number }
  questions: { number: number; options: (Bubble & { label: string })[] }[]
  roll: { column: number; digits: (Bubble & { digit: number })[] }[]
  set: (Bubble & { set: SheetSet })[]
  numeric: NumericGrid[]
}

export interface SheetLayoutInput {
  questionCount: number
  optionCounts: readonly number[]
  labels: OptionLabels
  /** The number printed beside each row, the paper's (a mixed paper's skip the written); 1.. when absent. */
  numbers?: readonly number[]
  /** How many sets the sitting has (1..4); the set row always prints A-D, as a blank sheet needs. */
  sets?: number
  /** Numeric questions' grids, placed after the rows (decision 129); none when absent. */
  numeric?: readonly NumericGridSpec[]
}

export const PAGE = { width_mm: 210, height_mm: 297 } as const
export const MARKER_SIZE_MM = 9
export const MARKER_INSET_MM = 11
export const QR_SIZE_MM = 30
export const QR_CENTRE_MM = { x: 174, y: 38 } as const
export const BUBBLE_R_MM = 2.25
export const OPTION_PITCH_MM = 6
export const ROW_PITCH_MM = 5.1
export const ROWS_PER_COLUMN = 40
export const COLUMN_PITCH_MM = 37.6
/** The first column's question-number box starts here; its first bubble is QUESTION_NUMBER_MM to the right. */
export const QUESTIONS_LEFT_MM = 11
export const QUESTION_NUMBER_MM = 9
export const QUESTIONS_TOP_MM = 76
export const ROLL_LEFT_MM = 112
export const ROLL_TOP_MM = 22
export const ROLL_COLUMNS = 6
export const SET_ROW = { left_mm: 30, y_mm: 64 } as const
export const MAX_QUESTIONS = 200
/** Question columns across the sheet (five of 40 rows). */
export const QUESTION_COLUMNS = 5
/** A grid's rows: the sign and point row, then digits 0-9. */
export const GRID_ROWS = 11
/** Digit columns a grid fits in one question column; wider ones take two (at most MAX_GRID_DIGITS). */
export const GRID_DIGITS_PER_COLUMN = 4
export const MAX_GRID_DIGITS = 8
export const MINUS_LABEL = '−'
export const POINT_LABEL = '.'
export const MAX_OPTIONS = 5

export const OPTION_LETTERS: Record<OptionLabels, readonly string[]> = {
  latin: ['A', 'B', 'C', 'D', 'E'],
  devanagari: ['क', 'ख', 'ग', 'घ', 'ङ'],
}

export class SheetLayoutError extends Error {}

const round = (mm: number) => Math.round(mm * 100) / 100

function validate({ questionCount, optionCounts, numbers, sets = 1, numeric }: SheetLayoutInput) {
  const least = (numeric?.length ?? 0) > 0 ? 0 : 1
  if (!Number.isInteger(questionCount) || questionCount < least || questionCount > MAX_QUESTIONS)
    throw new SheetLayoutError(`A sheet holds 1 to ${MAX_QUESTIONS} questions, not ${questionCount}.`)
  if (optionCounts.length !== questionCount)
    throw new SheetLayoutError(
      `${questionCount} questions need ${questionCount} option counts, not ${optionCounts.length}.`,
    )
  const unprintable = optionCounts.findIndex((n) => !Number.isInteger(n) || n < 2 || n > MAX_OPTIONS)
  if (unprintable >= 0)
    throw new SheetLayoutError(
      `Question ${unprintable + 1} has ${optionCounts[unprintable]} options; a sheet prints 2 to 5.`,
    )
  if (
    numbers &&
    (numbers.length !== questionCount ||
      numbers.some((n) => !Number.isInteger(n) || n < 1 || n > 999) ||
      new Set(numbers).size !== numbers.length)
  )
    throw new SheetLayoutError(`${questionCount} rows need ${questionCount} distinct question numbers 1..999.`)
  const grids = numeric ?? []
  const badGrid = grids.find(
    (g) =>
      !Number.isInteger(g.number) ||
      g.number < 1 ||
      g.number > 999 ||
      !Number.isInteger(g.whole) ||
      !Number.isInteger(g.fraction) ||
      g.whole < 0 ||
      g.fraction < 0 ||
      g.whole + g.fraction < 1 ||
      g.whole + g.fraction > MAX_GRID_DIGITS,
  )
  if (badGrid)
    throw new SheetLayoutError(
      `Question ${badGrid.number}'s grid has ${badGrid.whole} + ${badGrid.fraction} digits; a grid prints 1 to ${MAX_GRID_DIGITS}.`,
    )
  if (new Set(grids.map((g) => g.number)).size !== grids.length)
    throw new SheetLayoutError('Each numeric question has one grid.')
  if (!Number.isInteger(sets) || sets < 1 || sets > SHEET_SETS.length)
    throw new SheetLayoutError(`A sitting has 1 to 4 sets, not ${sets}.`)
}

/** The centre of question `index`'s first bubble (index from 0, in the sheet's row order). */
export function questionRowOrigin(index: number) {
  const column = Math.floor(index / ROWS_PER_COLUMN)
  const row = index % ROWS_PER_COLUMN
  return {
    x_mm: QUESTIONS_LEFT_MM + column * COLUMN_PITCH_MM + QUESTION_NUMBER_MM,
    y_mm: QUESTIONS_TOP_MM + row * ROW_PITCH_MM,
  }
}

/**
 * Where each grid's top-left bubble (the sign) goes: after the rows, down the columns, a blank row above a grid that
 * does not start its column; a grid of more than GRID_DIGITS_PER_COLUMN digits spans two columns. Throws when the
 * sheet is full.
 */
function placeGrids(rows: number, grids: readonly NumericGridSpec[]) {
  const free = Array.from({ length: QUESTION_COLUMNS }, (_, column) =>
    Math.max(0, Math.min(ROWS_PER_COLUMN, rows - column * ROWS_PER_COLUMN)),
  )
  let column = Math.min(QUESTION_COLUMNS - 1, Math.floor(rows / ROWS_PER_COLUMN))
  return grids.map((grid) => {
    const span = grid.whole + grid.fraction > GRID_DIGITS_PER_COLUMN ? 2 : 1
    for (; column + span <= QUESTION_COLUMNS; column++) {
      const used = Math.max(...free.slice(column, column + span))
      const top = used === 0 ? 0 : used + 1
      if (top + GRID_ROWS > ROWS_PER_COLUMN) continue
      for (let c = column; c < column + span; c++) free[c] = top + GRID_ROWS
      return questionRowOrigin(column * ROWS_PER_COLUMN + top)
    }
    throw new SheetLayoutError(`The sheet has no room for question ${grid.number}'s grid: too many questions.`)
  })
}

function numericGrid(spec: NumericGridSpec, origin: { x_mm: number; y_mm: number }): NumericGrid {
  const digits = spec.whole + spec.fraction
  const at = (label: string, column: number, row: number) => ({
    label,
    x_mm: round(origin.x_mm + column * OPTION_PITCH_MM),
    y_mm: round(origin.y_mm + row * ROW_PITCH_MM),
    r_mm: BUBBLE_R_MM,
  })
  const columns: NumericGrid['columns'] = [{ kind: 'sign', bubbles: [at(MINUS_LABEL, 0, 0)] }]
  for (let d = 0; d < digits; d++)
    columns.push({
      kind: 'digit',
      bubbles: Array.from({ length: 10 }, (_, digit) => at(String(digit), d + 1, digit + 1)),
    })
  // The point's places: in the top row, between each two digit columns (after digit column k: k + 1.5 pitches in).
  if (spec.fraction > 0 && digits > 1)
    columns.push({
      kind: 'point',
      bubbles: Array.from({ length: digits - 1 }, (_, k) => at(POINT_LABEL, k + 1.5, 0)),
    })
  return { question: spec.number, columns }
}

export function buildSheetLayout(input: SheetLayoutInput): SheetLayout {
  validate(input)
  const grids = input.numeric ?? []
  const origins = placeGrids(input.questionCount, grids)
  const letters = OPTION_LETTERS[input.labels]
  const inset = MARKER_INSET_MM
  return {
    page: { ...PAGE },
    markers: [
      { x_mm: inset, y_mm: inset },
      { x_mm: PAGE.width_mm - inset, y_mm: inset },
      { x_mm: PAGE.width_mm - inset, y_mm: PAGE.height_mm - inset },
      { x_mm: inset, y_mm: PAGE.height_mm - inset },
    ].map((centre) => ({ ...centre, size_mm: MARKER_SIZE_MM })),
    qr: { x_mm: QR_CENTRE_MM.x, y_mm: QR_CENTRE_MM.y, size_mm: QR_SIZE_MM },
    questions: input.optionCounts.map((count, index) => {
      const origin = questionRowOrigin(index)
      return {
        number: input.numbers?.[index] ?? index + 1,
        options: letters.slice(0, count).map((label, option) => ({
          label,
          x_mm: round(origin.x_mm + option * OPTION_PITCH_MM),
          y_mm: round(origin.y_mm),
          r_mm: BUBBLE_R_MM,
        })),
      }
    }),
    roll: Array.from({ length: ROLL_COLUMNS }, (_, column) => ({
      column,
      digits: Array.from({ length: 10 }, (_, digit) => ({
        digit,
        x_mm: round(ROLL_LEFT_MM + column * OPTION_PITCH_MM),
        y_mm: round(ROLL_TOP_MM + digit * ROW_PITCH_MM),
        r_mm: BUBBLE_R_MM,
      })),
    })),
    set: SHEET_SETS.map((set, index) => ({
      set,
      x_mm: round(SET_ROW.left_mm + index * OPTION_PITCH_MM),
      y_mm: SET_ROW.y_mm,
      r_mm: BUBBLE_R_MM,
    })),
    numeric: grids.map((grid, index) => numericGrid(grid, origins[index]!)),
  }
}
