import type { ImportMessage } from '@quiz/contracts'
import type { Run } from './draft'
import type { DocxReading } from './docx-paragraph'
import { attr, child, childrenOf, descendants, tagOf, type XmlNode } from './docx-xml'
import { trimRuns } from './runs'

const tableNote = (message: string): ImportMessage => ({ field: 'row', code: 'table', message })
const mergedCells = tableNote(
  "A table in this question has merged cells, which a question's table cannot hold: split them and import again.",
)
const nestedTable = tableNote("A table in this question holds another table, which a question's table cannot hold.")
const pictureInTable = tableNote('A table in this question holds a picture, which a table cell cannot hold.')
const ALIGN: Record<string, string> = { left: ':---', start: ':---', center: ':---:', right: '---:', end: '---:' }

const countParagraphs = (node: XmlNode): number =>
  tagOf(node) === 'w:p' ? 1 : childrenOf(node).reduce((sum, c) => sum + countParagraphs(c), 0)

// A Word table becomes pipe rows (API.md "Tables in questions"), each cell read as any paragraph (fonts too).
export function readTable(
  tbl: XmlNode,
  reading: DocxReading,
  paragraph: (p: XmlNode) => void,
  prepare: (runs: Run[]) => Run[],
) {
  const { lines } = reading
  const first = reading.paragraphNo + 1
  const refuse = (why: ImportMessage) => {
    lines.push({ no: first, runs: [], notes: [why], pictures: [] })
    reading.paragraphNo = first - 1 + countParagraphs(tbl)
  }
  const rows = childrenOf(tbl).filter((node) => tagOf(node) === 'w:tr')
  const cells = rows.map((row) => childrenOf(row).filter((node) => tagOf(node) === 'w:tc'))
  const cellProps = cells.flat().map((cell) => child(cell, 'w:tcPr'))
  if (cells.flat().some((cell) => descendants(cell, 'w:tbl').length > 0)) return refuse(nestedTable)
  if (
    cellProps.some(
      (tcPr) => tcPr && (child(tcPr, 'w:vMerge') || Number(attr(child(tcPr, 'w:gridSpan'), 'w:val') ?? 1) > 1),
    )
  )
    return refuse(mergedCells)
  const rowLines = cells.map((row) => {
    const no = reading.paragraphNo + 1
    const runs: Run[] = [{ text: '|', font: null }]
    const notes: ImportMessage[] = []
    for (const cell of row) {
      const from = lines.length
      for (const p of childrenOf(cell).filter((node) => tagOf(node) === 'w:p')) paragraph(p)
      const parts = lines.splice(from)
      if (parts.some((part) => (part.pictures ?? []).length > 0)) notes.push(pictureInTable)
      notes.push(...parts.flatMap((part) => part.notes))
      const content = prepare(
        parts.flatMap((part, index) => (index === 0 ? part.runs : [{ text: ' ', font: null }, ...part.runs])),
      )
      runs.push({ text: ' ', font: null })
      runs.push(
        ...trimRuns(content).map((run) => ({ ...run, text: run.text.replace(/\s+/g, ' ').replace(/\|/g, '\\|') })),
      )
      runs.push({ text: ' |', font: null })
    }
    return { no, runs, notes, pictures: [] }
  })
  const align = (cells[1] ?? cells[0] ?? []).map((cell) => {
    const p = childrenOf(cell).find((node) => tagOf(node) === 'w:p')
    const pPr = p ? child(p, 'w:pPr') : undefined
    return ALIGN[attr(pPr ? child(pPr, 'w:jc') : undefined, 'w:val') ?? ''] ?? '---'
  })
  const [header, ...body] = rowLines
  if (!header) return
  lines.push(header, { no: header.no, runs: [{ text: `| ${align.join(' | ')} |`, font: null }], notes: [] }, ...body)
}
