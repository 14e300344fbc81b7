// An HTML table becomes pipe rows (API.md "Tables in questions"); tags walked once, so no pattern rescans (issue 41).

export type TableRefusal = 'merged' | 'nested'

const TAG = /<(\/?)(table|caption|tr|td|th)\b([^>]*)>/gi
const SPAN = /\b(?:colspan|rowspan)\s*=\s*["']?\s*(\d+)/gi
const ALIGN = /(?:\balign\s*=\s*["']?|text-align\s*:\s*)(left|center|right)\b/i

interface Cell {
  html: string
  attrs: string
}

interface Found {
  start: number
  end: number
  rows: Cell[][]
  /** The `<caption>`'s markup: kept as a line of text above the pipe rows, which have no place for it. */
  caption: string
  refusal: TableRefusal | null
}

function findTables(html: string): Found[] {
  const found: Found[] = []
  let depth = 0
  let table: Found | null = null
  let row: Cell[] | null = null
  let cell: { from: number; attrs: string } | null = null
  let captionFrom: number | null = null
  const closeCell = (at: number) => {
    if (cell && row) row.push({ html: html.slice(cell.from, at), attrs: cell.attrs })
    cell = null
  }
  const closeRow = (at: number) => {
    closeCell(at)
    if (row && table) table.rows.push(row)
    row = null
  }
  for (const match of html.matchAll(TAG)) {
    const [whole, slash, name, attrs] = match as unknown as [string, string, string, string]
    const tag = name.toLowerCase()
    const at = match.index
    if (tag === 'table') {
      if (!slash) {
        depth += 1
        if (depth === 1) table = { start: at, end: html.length, rows: [], caption: '', refusal: null }
        else if (table) table.refusal = 'nested'
      } else if (depth > 0) {
        depth -= 1
        if (depth === 0 && table) {
          closeRow(at)
          table.end = at + whole.length
          found.push(table)
          table = null
        }
      }
      continue
    }
    if (depth !== 1 || !table) continue
    if (tag === 'caption') {
      if (!slash) captionFrom = at + whole.length
      else if (captionFrom !== null) table.caption += html.slice(captionFrom, at)
      if (slash) captionFrom = null
      continue
    }
    if (tag === 'tr') {
      closeRow(at)
      if (!slash) row = []
    } else if (!slash) {
      closeCell(at)
      row ??= []
      cell = { from: at + whole.length, attrs }
      if ([...attrs.matchAll(SPAN)].some((span) => Number(span[1]) > 1)) table.refusal ??= 'merged'
    } else closeCell(at)
  }
  if (table) {
    closeRow(html.length)
    found.push(table)
  }
  return found
}

export function tableRefusals(html: string): TableRefusal[] {
  if (!/<table\b/i.test(html)) return []
  return [...new Set(findTables(html).flatMap((table) => (table.refusal ? [table.refusal] : [])))]
}

const plainText = (html: string) =>
  html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
const cellText = (html: string) => plainText(html).replace(/\|/g, '\\|')

export function tablesToPipes(html: string): string {
  if (!/<table\b/i.test(html)) return html
  const out: string[] = []
  let kept = 0
  for (const table of findTables(html)) {
    out.push(html.slice(kept, table.start))
    kept = table.end
    while (kept < html.length && /\s/.test(html[kept]!)) kept += 1
    const rows = table.rows.filter((row) => row.length > 0)
    if (rows.length === 0) continue
    const line = (row: Cell[]) => `| ${row.map((cell) => cellText(cell.html)).join(' | ')} |`
    const alignFrom = rows[1] ?? rows[0]!
    const rule = rows[0]!.map((_, column) => {
      const align = ALIGN.exec(alignFrom[column]?.attrs ?? '')?.[1]?.toLowerCase()
      return align === 'center' ? ':---:' : align === 'right' ? '---:' : align === 'left' ? ':---' : '---'
    })
    const caption = plainText(table.caption)
    const lines = [line(rows[0]!), `| ${rule.join(' | ')} |`, ...rows.slice(1).map(line)]
    out.push(`<br>${[...(caption ? [caption] : []), ...lines].join('<br>')}<br>`)
  }
  out.push(html.slice(kept))
  return out.join('')
}
