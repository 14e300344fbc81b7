import { importColumns, importOptionLetters } from '@quiz/contracts'
import { emptyDraft, type Draft, type Run } from './draft'

// The spreadsheet layout of API.md, shared by the xlsx and csv readers: one question per row under a header row
// whose names are matched case-insensitively and in any order.

type Column = (typeof importColumns)[number]
const known = new Set<string>(importColumns)

/** `Question EN`, ` question_en ` and `QUESTION-EN` all name `question_en`. */
export const columnName = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')

/** Column index by name, or null when the row is no header (it names neither question column). */
export function headerColumns(headers: readonly string[]): Map<Column, number> | null {
  const columns = new Map<Column, number>()
  headers.forEach((header, index) => {
    const name = columnName(header)
    if (known.has(name) && !columns.has(name as Column)) columns.set(name as Column, index)
  })
  return columns.has('question_en') || columns.has('question_ne') ? columns : null
}

/** A row's cells by column name, as runs; a row whose known cells are all blank is null (skipped, no row entry). */
export function sheetDraft(row: number, cell: (column: Column) => Run[]): Draft | null {
  const value = (column: Column) => cell(column)
  const texts = importColumns.map((column) =>
    value(column)
      .map((run) => run.text)
      .join(''),
  )
  if (texts.every((text) => text.trim() === '')) return null
  const pair = (en: Column, ne: Column) => ({ en: value(en), ne: value(ne) })
  const draft = emptyDraft(row, pair('question_en', 'question_ne'))
  for (const letter of importOptionLetters) {
    const option = pair(`option_${letter}_en` as Column, `option_${letter}_ne` as Column)
    if (option.en.concat(option.ne).some((run) => run.text.trim() !== '')) {
      // A gap (options a, b and d) keeps d's letter: the answer column names it.
      while (draft.options.length < importOptionLetters.indexOf(letter)) draft.options.push({ en: [], ne: [] })
      draft.options.push(option)
    }
  }
  const answer = value('correct')
    .map((run) => run.text)
    .join('')
    .trim()
  draft.answer = answer ? { letter: answer } : null
  const hint = pair('hint_en', 'hint_ne')
  draft.hint = hint.en.concat(hint.ne).some((run) => run.text.trim() !== '') ? hint : null
  const orNull = (runs: Run[]) => (runs.some((run) => run.text.trim() !== '') ? runs : null)
  draft.topic = orNull(value('topic'))
  draft.tags = orNull(value('tags'))
  draft.source = orNull(value('source'))
  draft.difficulty =
    value('difficulty')
      .map((run) => run.text)
      .join('')
      .trim() || null
  return draft
}
