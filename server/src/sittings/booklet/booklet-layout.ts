import { buildSheetLayout, BUBBLE_R_MM, PAGE, type Bubble, type SheetLayout } from '../sheet/sheet-layout'

/**
 * The geometry of a written-answer booklet page (API.md "On paper", `booklet-layout`): A4, millimetres from the
 * page's top left, every position a centre. The corner squares, the QR code and the roll grid sit exactly where an
 * answer sheet prints them (sheet-layout.ts), so the sheet reader's page finding, code reading and roll reading serve
 * both; what is a booklet's own is the row of question-number bubbles under the header and the ruled answer area.
 * - question bubbles 4.5 mm across, 9 mm apart (room for a three-digit number printed above each), up to 19 a row,
 *   two rows: 38 written questions a paper at most;
 * - the roll grid on every page of a blank booklet and on a spare page (a roster booklet's code names its learner):
 *   blank booklets are photocopied, serial and all, so a later page cannot take its learner from a first page.
 */

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

/**
 * What markers and the learner see of a page (docs/decisions/089): the full width from 100 mm down, 4 mm below the
 * second row of question bubbles and 6 mm above the ruled area. Everything that says whose the page is sits above it:
 * the name and roll number (to 45 mm), the QR code (to 53 mm), the roll grid (to 70 mm), the question label
 * (75 mm), so a curled page whose middle is a few millimetres off its corners' plane shows none of them.
 */
export const MARKED_REGION_MM = { left: 0, top: 100, right: PAGE.width_mm, bottom: PAGE.height_mm } as const
