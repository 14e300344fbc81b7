import ExcelJS from 'exceljs'
import {
  importLimits,
  importMessages,
  importOptionLetters,
  importPassagePictureField,
  importPictureFields,
} from '@quiz/contracts'
import { checkMapping, columnName, headerColumns, NoHeader, sheetDraft, type Column } from './columns'
import { Unreadable, type Draft, type DraftPicture, type Run } from './draft'
import { repack, unpackCounted } from './zip'

const KIND = 'an Excel workbook (.xlsx)'

/** Printer settings and embedded objects are counted but not kept: exceljs reads only what a question needs. */
const needed = (name: string) => !/^xl\/(printerSettings|embeddings)\//.test(name)

const letterOf = (column: number) => {
  let name = ''
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

// A picture in another cell of the row, or a caption without a picture, cannot be placed and is said.
function placePictures(
  draft: Draft,
  found: { column: number; picture: DraftPicture }[],
  pictureColumns: Map<string, number>,
  text: (column: number) => string,
) {
  const fieldAt = new Map([...pictureColumns].map(([name, column]) => [column, name]))
  for (const { column, picture } of found) {
    const field = fieldAt.get(column)
    const at = field ? importPictureFields.indexOf(field as (typeof importPictureFields)[number]) : -1
    if (at < 0 && field !== importPassagePictureField) {
      draft.notes.push({
        field: 'row',
        code: 'image',
        message: `${picture.name} in column ${letterOf(column)} is in no picture column (image, option_a_image …, passage_image): move it there.`,
      })
      continue
    }
    const caption = (language: 'en' | 'ne') => {
      const captionColumn = pictureColumns.get(`${field}_caption_${language}`)
      return captionColumn === undefined ? '' : text(captionColumn).trim()
    }
    picture.caption = { en: caption('en'), ne: caption('ne') }
    if (field === importPassagePictureField) (draft.passageImages ??= []).push(picture)
    else if (at === 0) draft.images.push(picture)
    else if (at - 1 < draft.options.length) (draft.optionImages[at - 1] ??= []).push(picture)
    else
      draft.notes.push({
        field: 'row',
        code: 'image',
        message: `${picture.name} is for option ${importOptionLetters[at - 1]!.toUpperCase()}, which has no text.`,
      })
  }
  for (const [name, column] of pictureColumns) {
    const field = /^(.*)_caption_(en|ne)$/.exec(name)?.[1]
    if (!field || text(column).trim() === '') continue
    const pictureColumn = pictureColumns.get(field)
    if (pictureColumn === undefined || !found.some((item) => item.column === pictureColumn))
      draft.notes.push({
        field: 'row',
        code: 'image',
        message: `The caption in ${name} has no picture in its ${field} column.`,
      })
  }
}

// exceljs makes an object per cell: sheets are capped lower than the archive and their cells counted first.
const isSheetPart = (name: string) => /^xl\/worksheets\/[^/]+\.xml$/.test(name) || name === 'xl/sharedStrings.xml'
const sheetCap = (name: string) =>
  isSheetPart(name) ? { bytes: importLimits.sheetBytes, message: importMessages.sheetTooLarge } : undefined

export function cellCount(entries: Map<string, Uint8Array>): number {
  let cells = 0
  for (const [name, xml] of entries) {
    if (!/^xl\/worksheets\/[^/]+\.xml$/.test(name)) continue
    for (let at = xml.indexOf(0x3c); at >= 0 && at + 2 < xml.length; at = xml.indexOf(0x3c, at + 1)) {
      const next = xml[at + 2]
      if (xml[at + 1] === 0x63 && (next === 0x20 || next === 0x3e || next === 0x2f)) cells++
    }
  }
  return cells
}

function cellRuns(cell: ExcelJS.Cell): Run[] {
  const cellFont = cell.font?.name ?? null
  const value = cell.value
  if (value === null || value === undefined) return []
  if (typeof value === 'object' && 'richText' in value)
    return value.richText.map((run) => ({ text: run.text, font: run.font?.name ?? cellFont }))
  const text = cellText(value)
  return text === '' ? [] : [{ text, font: cellFont }]
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  if (typeof value !== 'object') return String(value)
  if ('richText' in value) return value.richText.map((run) => run.text).join('')
  if ('text' in value && typeof value.text === 'string') return value.text
  if ('result' in value) return cellText((value.result ?? null) as ExcelJS.CellValue)
  if ('error' in value) return ''
  return ''
}

export async function readXlsx(bytes: Uint8Array, mapping: Record<string, Column> = {}): Promise<Draft[]> {
  const entries = unpackCounted(bytes, KIND, needed, undefined, sheetCap)
  if (cellCount(entries) > importLimits.sheetCells) throw new Unreadable(importMessages.sheetTooLarge)
  if (![...entries.keys()].some((name) => name.startsWith('xl/')))
    throw new Unreadable(`This file is not ${KIND}: it may be a Word file or another zip.`)
  const workbook = new ExcelJS.Workbook()
  try {
    await workbook.xlsx.load(Buffer.from(repack(entries)) as unknown as ArrayBuffer)
  } catch {
    throw new Unreadable(`This ${KIND.replace(/^an /, '')} is damaged and cannot be opened.`)
  }
  const sheet = workbook.worksheets[0]
  if (!sheet) throw new Unreadable('This workbook has no sheet.')
  let columns: ReturnType<typeof headerColumns> = null
  let firstHeadings: string[] | null = null
  const pictureColumns = new Map<string, number>()
  const drafts: Draft[] = []
  const picturesByRow = new Map<number, { column: number; picture: DraftPicture }[]>()
  for (const image of sheet.getImages()) {
    const media = workbook.getImage(Number(image.imageId))
    const anchor = image.range?.tl
    if (!media?.buffer || !anchor) continue
    const row = Math.floor(anchor.nativeRow ?? anchor.row) + 1
    const column = Math.floor(anchor.nativeCol ?? anchor.col)
    const bytes = new Uint8Array(media.buffer as unknown as ArrayBuffer)
    const list = picturesByRow.get(row) ?? []
    list.push({ column, picture: { bytes, alt: '', name: `The picture at ${letterOf(column)}${row}` } })
    picturesByRow.set(row, list)
  }
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (!columns) {
      const headers: string[] = []
      row.eachCell({ includeEmpty: true }, (cell, column) => {
        headers[column - 1] = cellText(cell.value)
      })
      const headings = Array.from(headers, (header) => header ?? '')
      firstHeadings ??= headings
      columns = headerColumns(headings, mapping)
      if (columns) {
        checkMapping(headings, mapping)
        headings.forEach((heading, index) => {
          const name = columnName(heading)
          if (/^(image|option_[a-j]_image|passage_image)(_caption_(en|ne))?$/.test(name) && !pictureColumns.has(name))
            pictureColumns.set(name, index)
        })
      }
      return
    }
    const found = columns
    const draft = sheetDraft(
      rowNumber,
      (column) => {
        const index = found.get(column)
        return index === undefined ? [] : cellRuns(row.getCell(index + 1))
      },
      new Set(found.keys()),
    )
    if (draft) {
      placePictures(draft, picturesByRow.get(rowNumber) ?? [], pictureColumns, (index) =>
        cellText(row.getCell(index + 1).value),
      )
      drafts.push(draft)
    }
    if (drafts.length > importLimits.questions) throw new Unreadable(tooMany)
  })
  if (!columns) {
    const headings = ((firstHeadings ?? []) as string[]).filter((heading) => heading.trim() !== '')
    if (Object.keys(mapping).length > 0) checkMapping(headings, mapping)
    throw new NoHeader(headings)
  }
  return drafts
}

export const tooMany = `An import may hold at most ${importLimits.questions.toLocaleString('en')} questions; split the file.`
export { noHeader } from './columns'
