/** An answer sheet's geometry (A4, mm from the top left, centres), drawn and read alike: decision 055 "In the code". */

export type OptionLabels = 'latin' | 'devanagari'

export const SHEET_SETS = ['A', 'B', 'C', 'D'] as const
export type SheetSet = (typeof SHEET_SETS)[number]

export interface Bubble {
  x_mm: number
  y_mm: number
  r_mm: number
}

export interface SheetLayout {
  page: { width_mm: number; height_mm: number }
  markers: { x_mm: number; y_mm: number; size_mm: number }[]
  qr: { x_mm: number; y_mm: number; size_mm: number }
  questions: { number: number; options: (Bubble & { label: string })[] }[]
  roll: { column: number; digits: (Bubble & { digit: number })[] }[]
  set: (Bubble & { set: SheetSet })[]
}

export interface SheetLayoutInput {
  questionCount: number
  optionCounts: readonly number[]
  labels: OptionLabels
  /** The number printed beside each row, the paper's (a mixed paper's skip the written); 1.. when absent. */
  numbers?: readonly number[]
  /** How many sets the sitting has (1..4); the set row always prints A-D, as a blank sheet needs. */
  sets?: number
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
export const MAX_OPTIONS = 5

export const OPTION_LETTERS: Record<OptionLabels, readonly string[]> = {
  latin: ['A', 'B', 'C', 'D', 'E'],
  devanagari: ['क', 'ख', 'ग', 'घ', 'ङ'],
}

export class SheetLayoutError extends Error {}

const round = (mm: number) => Math.round(mm * 100) / 100

function validate({ questionCount, optionCounts, numbers, sets = 1 }: SheetLayoutInput) {
  if (!Number.isInteger(questionCount) || questionCount < 1 || questionCount > MAX_QUESTIONS)
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

export function buildSheetLayout(input: SheetLayoutInput): SheetLayout {
  validate(input)
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
  }
}
