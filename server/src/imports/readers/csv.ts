import { parse } from 'csv-parse/sync'
import { importLimits } from '@quiz/contracts'
import { checkMapping, headerColumns, NoHeader, sheetDraft, type Column } from './columns'
import { plain, Unreadable, type Draft } from './draft'
import { tooMany } from './xlsx'

/** Excel saves CSV with `;` where the decimal comma is usual: the header line's commonest separator is used. */
function delimiterOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/))
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, header.split(delimiter).length] as const)
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0]
}

const lineBreaks = (text: string) => text.match(/\r\n|\r|\n/g)?.length ?? 0

export function readCsv(bytes: Uint8Array, mapping: Record<string, Column> = {}): Draft[] {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new Unreadable('This CSV file is not in UTF-8; in Excel choose "CSV UTF-8" when saving.')
  }
  text = text.replace(/^\uFEFF/, '')
  let records: { record: string[]; raw: string }[]
  try {
    records = parse(text, {
      delimiter: delimiterOf(text),
      raw: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as typeof records
  } catch (error) {
    throw new Unreadable(`This CSV file cannot be read: ${(error as Error).message.replace(/^Invalid.*?: /, '')}`)
  }
  const [header, ...rest] = records
  const headings = header ? header.record.filter((heading) => heading.trim() !== '') : []
  if (Object.keys(mapping).length > 0) checkMapping(headings, mapping)
  const columns = header ? headerColumns(header.record, mapping) : null
  if (!columns) throw new NoHeader(headings)
  const present = new Set(columns.keys())
  const drafts: Draft[] = []
  // csv-parse counts a quoted CRLF as two lines: the record's first line is found by its raw text instead.
  let cursor = header!.raw.length
  let lastStart = 0
  let line = 1
  for (const { record, raw } of rest) {
    const start = text.indexOf(raw, cursor)
    line += lineBreaks(text.slice(lastStart, start))
    lastStart = start
    const firstLine = line
    cursor = start + raw.length
    const draft = sheetDraft(
      firstLine,
      (column) => {
        const index = columns.get(column)
        return index === undefined ? [] : plain(record[index] ?? '')
      },
      present,
    )
    if (draft) drafts.push(draft)
    if (drafts.length > importLimits.questions) throw new Unreadable(tooMany)
  }
  return drafts
}
