import type { ImportMessage } from '@quiz/contracts'

/** A stretch of text in one font (a Word run, an Excel rich-text run or cell); `font` null where the format has none. */
export interface Run {
  text: string
  font: string | null
  /** Set on a run converted from a legacy Nepali font: what was typed, and in which font. */
  converted?: { original: string; font: 'preeti' | 'kantipur' }
}

/**
 * A text as a reader found it: split by language (a spreadsheet's `_en` / `_ne` columns) or not (everything else,
 * where Devanagari decides the language once legacy fonts are converted).
 */
export type DraftText = { en: Run[]; ne: Run[] } | { mixed: Run[] }

/** The answer as written: a letter (`B`, `ख`, `(ख)`, or an option's own text), or each option's mark. */
export type DraftAnswer = { letter: string } | { marks: boolean[] } | null

/** One question-like part of the input, before legacy fonts, languages, defaults and validation. */
export interface Draft {
  /** 1-based place in the file (API.md: sheet row, record's first line, paragraph, first line, `<question>` line). */
  row: number
  text: DraftText
  options: DraftText[]
  answer: DraftAnswer
  hint: DraftText | null
  topic: Run[] | null
  tags: Run[] | null
  difficulty: string | null
  source: Run[] | null
  /** What the reader already knows: a fix it made, or why the row cannot come in (an image, a question type). */
  notes: ImportMessage[]
  /** Pictures found in the question's text (more than one rejects the row: a question holds one image). */
  images: DraftPicture[]
  /** Pictures found in each option, by option index. */
  optionImages: DraftPicture[][]
}

/** A picture a reader found, as bytes still to be checked and re-encoded (rows.ts), with what names it to an admin. */
export interface DraftPicture {
  bytes: Uint8Array
  /** Alt text (Word's description, an `<img alt>`), which may become the caption. */
  alt: string
  /** How messages name it: "The picture image1.png". */
  name: string
  /** Its caption where the file holds one (the bank export's caption columns); otherwise `alt` may become it. */
  caption?: { en: string; ne: string }
}

/** A file that cannot be read at all: 400 `import_unreadable` with this sentence. */
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
