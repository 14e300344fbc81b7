import { buildSheetLayout, BUBBLE_R_MM, PAGE, type Bubble, type SheetLayout } from '../sheet/sheet-layout'

/** A booklet page's geometry (A4, mm from the top left, centres), a sheet's where they share: decision 075. */

export interface QuestionBubble extends Bubble {
  /** The printed question number the bubble stands for. */
  number: number
}

export interface BookletLayout {
  page: SheetLayout['page']
  markers: SheetLayout['markers']
  qr: SheetLayout['qr']
  /** The question-number bubbles, row by row, left to right. */
  questions: QuestionBubble[]
  /** The roll-number grid, as an answer sheet's; empty when the page has none. */
  roll: SheetLayout['roll']
  /** Where the learner writes, ruled. */
  answer_area: { left_mm: number; top_mm: number; right_mm: number; bottom_mm: number }
}

export const QUESTION_ROW_TOP_MM = 84
export const QUESTION_ROW_PITCH_MM = 10
export const QUESTION_LEFT_MM = 22
export const QUESTION_PITCH_MM = 9
export const QUESTIONS_PER_ROW = 19
export const MAX_BOOKLET_QUESTIONS = 2 * QUESTIONS_PER_ROW
const ANSWER_AREA = { left_mm: 16, top_mm: 106, right_mm: 194, bottom_mm: 278 }

export class BookletLayoutError extends Error {}

/** Whether a page of this kind prints the roll grid: every page that does not name its learner in its code. */
export const hasRollGrid = (code: { kind: 'roster' | 'blank' | 'spare' }) => code.kind !== 'roster'

const SHEET_PARTS = buildSheetLayout({ questionCount: 1, optionCounts: [2], labels: 'latin' })

/** The bubble place of the `index`-th question of the row(s) (from 0). */
export function questionBubbleAt(index: number): { x_mm: number; y_mm: number } {
  return {
    x_mm: QUESTION_LEFT_MM + (index % QUESTIONS_PER_ROW) * QUESTION_PITCH_MM,
    y_mm: QUESTION_ROW_TOP_MM + Math.floor(index / QUESTIONS_PER_ROW) * QUESTION_ROW_PITCH_MM,
  }
}

export function buildBookletLayout(input: { numbers: readonly number[]; rollGrid: boolean }): BookletLayout {
  const { numbers } = input
  if (numbers.length < 1 || numbers.length > MAX_BOOKLET_QUESTIONS)
    throw new BookletLayoutError(
      `A booklet page's row holds 1 to ${MAX_BOOKLET_QUESTIONS} questions, not ${numbers.length}.`,
    )
  if (numbers.some((n) => !Number.isInteger(n) || n < 1 || n > 999) || new Set(numbers).size !== numbers.length)
    throw new BookletLayoutError('Question numbers are distinct whole numbers 1..999.')
  return {
    page: { ...SHEET_PARTS.page },
    markers: SHEET_PARTS.markers.map((marker) => ({ ...marker })),
    qr: { ...SHEET_PARTS.qr },
    questions: numbers.map((number, index) => ({ number, ...questionBubbleAt(index), r_mm: BUBBLE_R_MM })),
    roll: input.rollGrid ? SHEET_PARTS.roll.map((column) => ({ ...column, digits: [...column.digits] })) : [],
    answer_area: { ...ANSWER_AREA },
  }
}

/** The question rows' rectangle (page mm), printed numbers and all: what a person settling a flag is shown. */
export function questionRowRect(layout: Pick<BookletLayout, 'questions'>) {
  const xs = layout.questions.map((q) => q.x_mm)
  const ys = layout.questions.map((q) => q.y_mm)
  return {
    left: Math.min(...xs) - BUBBLE_R_MM - 2,
    top: Math.min(...ys) - BUBBLE_R_MM - 5,
    right: Math.max(...xs) + BUBBLE_R_MM + 2,
    bottom: Math.max(...ys) + BUBBLE_R_MM + 1.5,
  }
}

/** What markers and the learner see of a page: below everything that says whose it is (docs/decisions/089). */
export const MARKED_REGION_MM = { left: 0, top: 100, right: PAGE.width_mm, bottom: PAGE.height_mm } as const
