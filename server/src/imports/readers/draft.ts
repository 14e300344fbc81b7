import type { ImportMessage } from '@quiz/contracts'

export interface Run {
  text: string
  font: string | null
  converted?: { original: string; font: 'preeti' | 'kantipur' }
}

// Split by language only in a spreadsheet's `_en` / `_ne` columns; elsewhere Devanagari decides after legacy fonts.
export type DraftText = { en: Run[]; ne: Run[] } | { mixed: Run[] }

export type DraftAnswer = { letter: string } | { marks: boolean[] } | null

export interface Draft {
  // API.md's numbering: sheet row, record's first line, paragraph, first line, `<question>` line (1-based).
  row: number
  text: DraftText
  options: DraftText[]
  answer: DraftAnswer
  hint: DraftText | null
  topic: Run[] | null
  tags: Run[] | null
  difficulty: string | null
  source: Run[] | null
  /** A spreadsheet's written question: its `type`, `marks` and `word_limit` cells as written, and its model answer. */
  written?: { type: string; marks: string; wordLimit: string; modelAnswer: DraftText | null }
  /** Several options may be right (Moodle's multiple answer, GIFT's weighted answers, a sheet's `type` multiple). */
  multiple?: boolean
  /** A numeric question's key as written: the cells of a sheet, or the numbers of a Moodle or GIFT answer. */
  numeric?: DraftNumeric
  /** The reading passage the question comes under (a sheet's `passage` cell, Word's "Passage:" paragraph). */
  passage?: DraftText | null
  /** The passage's picture: Word's picture in the passage, a sheet's `passage_image` cell. */
  passageImages?: DraftPicture[]
  notes: ImportMessage[]
  images: DraftPicture[]
  optionImages: DraftPicture[][]
}

/** Cells as written ('' when absent); the row reads them as numbers and refuses what is not one at its field. */
export interface DraftNumeric {
  value: string
  tolerance: string
  min: string
  max: string
  decimals: string
}

export interface DraftPicture {
  bytes: Uint8Array
  alt: string
  name: string
  caption?: { en: string; ne: string }
}

export class Unreadable extends Error {}

export const plain = (text: string): Run[] => (text === '' ? [] : [{ text, font: null }])
export const runsText = (runs: readonly Run[]) => runs.map((run) => run.text).join('')

export function emptyDraft(row: number, text: DraftText): Draft {
  return {
    row,
    text,
    options: [],
    answer: null,
    hint: null,
    topic: null,
    tags: null,
    difficulty: null,
    source: null,
    notes: [],
    images: [],
    optionImages: [],
  }
}
