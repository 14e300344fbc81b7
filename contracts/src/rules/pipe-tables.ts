// Shared by the server's renderer and the admin form's live preview (`@quiz/contracts/rules/pipe-tables`), like
// tex-segments: both must agree on where tables are and what they may hold (API.md "Tables in questions").
// A table is Markdown's pipe table: a header row `| Year | Exports |`, a line `|---|---:|`, then rows.

export const tableLimits = { maxRows: 30, maxColumns: 8, maxTables: 4 } as const

export type Align = 'left' | 'center' | 'right' | null

export interface PipeTable {
  header: string[]
  align: Align[]
  rows: string[][]
}

export type TextBlock = { kind: 'text'; text: string } | { kind: 'table'; table: PipeTable }

/** What is wrong with a text's tables; `table` and `row` count from 1 (`row` 1 is the first row under the header). */
export type TableProblem =
  | { code: 'table_no_header'; table: number }
  | { code: 'table_row_length'; table: number; row: number; cells: number; columns: number }
  | { code: 'table_too_many_rows'; table: number; rows: number }
  | { code: 'table_too_many_columns'; table: number; columns: number }
  | { code: 'table_too_many_tables'; tables: number }

export type TextBlocks = { ok: true; blocks: TextBlock[]; tables: number } | { ok: false; problem: TableProblem }

// A row is a line that starts and ends with `|`; a single such line is text (`|x| = 3`), two or more are a table.
const isPipeLine = (line: string) => {
  const trimmed = line.trim()
  return trimmed.length >= 2 && trimmed.startsWith('|') && trimmed.endsWith('|')
}
const DELIMITER_CELL = /^:?-+:?$/

/** The text cut into plain runs and tables, or the first thing wrong with a table in it. */
export function splitTables(source: string): TextBlocks {
  if (!source.includes('|')) return { ok: true, blocks: source ? [{ kind: 'text', text: source }] : [], tables: 0 }
  const lines = source.split('\n')
  const blocks: TextBlock[] = []
  let text: string[] = []
  let tables = 0
  let index = 0
  while (index < lines.length) {
    let end = index
    while (end < lines.length && isPipeLine(lines[end]!)) end += 1
    if (end - index < 2) {
      text.push(lines[index]!)
      index += 1
      continue
    }
    tables += 1
    const parsed = parseTable(lines.slice(index, end), tables)
    if ('code' in parsed) return { ok: false, problem: parsed }
    if (text.length > 0) blocks.push({ kind: 'text', text: text.join('\n') })
    text = []
    blocks.push({ kind: 'table', table: parsed })
    index = end
  }
  if (tables > tableLimits.maxTables) return { ok: false, problem: { code: 'table_too_many_tables', tables } }
  if (text.length > 0) blocks.push({ kind: 'text', text: text.join('\n') })
  return { ok: true, blocks: tables === 0 ? [{ kind: 'text', text: source }] : blocks, tables }
}

function parseTable(lines: string[], table: number): PipeTable | TableProblem {
  const header = splitCells(lines[0]!)
  const delimiter = splitCells(lines[1]!)
  if (!delimiter.every((cell) => DELIMITER_CELL.test(cell.replace(/\s+/g, ''))) || delimiter.length === 0)
    return { code: 'table_no_header', table }
  if (delimiter.length !== header.length)
    return { code: 'table_row_length', table, row: 0, cells: delimiter.length, columns: header.length }
  if (header.length > tableLimits.maxColumns) return { code: 'table_too_many_columns', table, columns: header.length }
  const rows = lines.slice(2).map(splitCells)
  if (rows.length > tableLimits.maxRows) return { code: 'table_too_many_rows', table, rows: rows.length }
  const short = rows.findIndex((row) => row.length !== header.length)
  if (short !== -1)
    return { code: 'table_row_length', table, row: short + 1, cells: rows[short]!.length, columns: header.length }
  const align = delimiter.map((cell): Align => {
    const spec = cell.replace(/\s+/g, '')
    const left = spec.startsWith(':')
    const right = spec.endsWith(':')
    return left && right ? 'center' : right ? 'right' : left ? 'left' : null
  })
  return { header, align, rows }
}

/**
 * A row's cells, trimmed. `\|` is a pipe inside a cell; a `|` inside a formula (`$|x|$`) is the formula's, read with
 * tex-segments' rules (`\$` is a dollar, a backslash in a formula escapes the next character).
 */
export function splitCells(line: string): string[] {
  const row = line.trim().slice(1, -1)
  const cells: string[] = []
  let cell = ''
  let index = 0
  while (index < row.length) {
    const char = row[index]!
    if (char === '\\' && (row[index + 1] === '|' || row[index + 1] === '$')) {
      cell += row[index + 1] === '|' ? '|' : '\\$'
      index += 2
    } else if (char === '$') {
      const delimiter = row[index + 1] === '$' ? '$$' : '$'
      const end = closing(row, index + delimiter.length, delimiter)
      // An unmatched `$` is left for the cell's maths check to name.
      const stop = end === -1 ? index + 1 : end + delimiter.length
      cell += row.slice(index, stop)
      index = stop
    } else if (char === '|') {
      cells.push(cell.trim())
      cell = ''
      index += 1
    } else {
      cell += char
      index += 1
    }
  }
  cells.push(cell.trim())
  return cells
}

function closing(source: string, from: number, delimiter: string) {
  for (let index = from; index < source.length; index += 1) {
    if (source[index] === '\\') index += 1
    else if (source.startsWith(delimiter, index)) return index
  }
  return -1
}

/**
 * The table's markup around its cells' html (each already escaped or rendered): headers `<th scope="col">`, so a
 * screen reader reads a cell with its column's header; the box scrolls sideways on a narrow screen and takes focus to
 * be scrolled by keyboard.
 */
export function tableHtml(table: PipeTable, header: string[], rows: string[][]): string {
  const cls = (column: number) => (table.align[column] ? ` class="align-${table.align[column]}"` : '')
  const head = header.map((cell, column) => `<th scope="col"${cls(column)}>${cell}</th>`).join('')
  const body = rows
    .map((row) => `<tr>${row.map((cell, column) => `<td${cls(column)}>${cell}</td>`).join('')}</tr>`)
    .join('')
  return (
    `<div class="q-table" tabindex="0" role="group"><table><thead><tr>${head}</tr></thead>` +
    `<tbody>${body}</tbody></table></div>`
  )
}

/** The table as pipe rows, as it is written (its cells' `|` escaped): the plain reading and the export. */
export function tableSource(table: PipeTable, header = table.header, rows = table.rows): string {
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`
  const rule = table.align.map((align) =>
    align === 'center' ? ':---:' : align === 'right' ? '---:' : align === 'left' ? ':---' : '---',
  )
  return [line(header), `| ${rule.join(' | ')} |`, ...rows.map(line)].join('\n')
}

/** An English sentence for a table problem (the server's 400; the web app says it in the reader's language). */
export function describeTableProblem(problem: TableProblem): string {
  switch (problem.code) {
    case 'table_no_header':
      return `Table ${problem.table} has no header line: its second row must be a line such as |---|---|.`
    case 'table_row_length':
      return problem.row === 0
        ? `Table ${problem.table}'s header line has ${problem.cells} cells where its header row has ${problem.columns}.`
        : `Table ${problem.table}, row ${problem.row} has ${problem.cells} cells where its header has ${problem.columns}.`
    case 'table_too_many_rows':
      return `Table ${problem.table} has ${problem.rows} rows; a table may have at most ${tableLimits.maxRows}.`
    case 'table_too_many_columns':
      return `Table ${problem.table} has ${problem.columns} columns; a table may have at most ${tableLimits.maxColumns}.`
    case 'table_too_many_tables':
      return `This text holds ${problem.tables} tables; a text may hold at most ${tableLimits.maxTables}.`
  }
}

/** Whether a sentence of describeTableProblem's is one (the import names its code `table`). */
export const isTableProblem = (message: string) => /^(?:Table \d+[ ,']|This text holds \d+ tables)/.test(message)
