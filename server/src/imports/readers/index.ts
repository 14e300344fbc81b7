import type { ImportFormat } from '@quiz/contracts'
import { readAiken } from './aiken'
import type { Column } from './columns'
import { readCsv } from './csv'
import { readDocx } from './docx'
import { Unreadable, type Draft, type Run } from './draft'
import { readGift } from './gift'
import { readText } from './layout'
import { readMoodleXml } from './moodle-xml'
import { readXlsx } from './xlsx'
import { isCompoundFile, isZip, messages as zipMessages } from './zip'

export { Unreadable, type Draft, type Run } from './draft'
export { ColumnsRefused, NoHeader } from './columns'

export interface ImportInput {
  /** An uploaded file, or null for pasted text. */
  file: { bytes: Uint8Array; name: string } | null
  text: string | null
  format: ImportFormat | undefined
  /** The upload's `columns`: a spreadsheet's headings mapped to template columns. */
  columns?: Record<string, Column>
}

const NAMES: Record<ImportFormat, string> = {
  xlsx: 'an Excel workbook (.xlsx)',
  csv: 'a CSV file',
  docx: 'a Word document (.docx)',
  text: 'text',
  aiken: 'Aiken text',
  gift: 'GIFT text',
  moodle_xml: 'Moodle XML',
}

const extensionOf = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? ''

function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2))
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2))
  if (bytes.subarray(0, 8192).includes(0)) throw new Unreadable(unknownKind)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '')
  } catch {
    throw new Unreadable('This file is not in UTF-8; save it as UTF-8 (in Excel: "CSV UTF-8") and import that.')
  }
}

const unknownKind =
  'This file is not one the import reads: an Excel workbook (.xlsx), CSV, a Word document (.docx), Aiken, GIFT, Moodle XML or text.'

/** The format of text by its content. */
export function guessTextFormat(text: string): ImportFormat {
  const head = text.slice(0, 4096)
  if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<quiz\b/i.test(head)) return 'moodle_xml'
  const firstLine = head.split(/\r?\n/, 1)[0] ?? ''
  if (/(^|[,;\t"])\s*question_(en|ne)\s*("|[,;\t]|$)/i.test(firstLine)) return 'csv'
  if (/^ANSWER:\s*[A-Z]\s*$/m.test(text)) return 'aiken'
  if (/(^|\n)\s*(::[^\n]*::)?[^\n{]*\{[^}]*[=~][^}]*\}/.test(text) || /^\s*\$CATEGORY:/m.test(text)) return 'gift'
  return 'text'
}

/** The format of a file by its content, its name breaking ties between text formats. */
function guessFileFormat(bytes: Uint8Array, name: string): ImportFormat {
  const extension = extensionOf(name)
  if (isZip(bytes)) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    if (buffer.includes('word/document.xml')) return 'docx'
    if (buffer.includes('xl/workbook.xml')) return 'xlsx'
    if (extension === 'docx' || extension === 'xlsx') return extension
    throw new Unreadable('This zip is neither an Excel workbook (.xlsx) nor a Word document (.docx).')
  }
  if (isCompoundFile(bytes)) throw new Unreadable(zipMessages.compound)
  if (extension === 'xlsx' || extension === 'docx' || extension === 'xls' || extension === 'doc')
    throw new Unreadable(
      `This file is named .${extension} but is not ${extension.startsWith('x') ? 'an Excel workbook' : 'a Word document'}: it may be damaged, or another kind of file renamed.`,
    )
  if (/^%PDF/.test(Buffer.from(bytes.subarray(0, 5)).toString('latin1')))
    throw new Unreadable('PDF files cannot be imported; open the PDF in Word, save it as .docx and import that.')
  const text = decodeText(bytes)
  if (extension === 'csv') return 'csv'
  if (extension === 'xml') return 'moodle_xml'
  if (extension === 'gift') return 'gift'
  return guessTextFormat(text)
}

/** The input's questions as drafts, in file order, and the format read. */
export async function readInput(
  input: ImportInput,
  prepareDocxRuns?: (runs: Run[]) => Run[],
  prepareTextLines?: (lines: Run[][]) => Run[][],
): Promise<{ format: ImportFormat; drafts: Draft[] }> {
  const format =
    input.format ??
    (input.file ? guessFileFormat(input.file.bytes, input.file.name) : guessTextFormat(input.text ?? ''))
  if (input.file) {
    const { bytes } = input.file
    if (format === 'xlsx') return { format, drafts: await readXlsx(bytes, input.columns) }
    if (format === 'docx') return { format, drafts: readDocx(bytes, prepareDocxRuns) }
    if (isZip(bytes) || isCompoundFile(bytes))
      throw new Unreadable(`This file is not ${NAMES[format]}: it is an Office file or a zip. Choose its format.`)
    if (format === 'csv') return { format, drafts: readCsv(bytes, input.columns) }
    return { format, drafts: readTextFormat(format, decodeText(bytes), prepareTextLines) }
  }
  const text = input.text ?? ''
  if (format === 'xlsx' || format === 'docx')
    throw new Unreadable(`Pasted text cannot be ${NAMES[format]}; upload the file instead.`)
  if (format === 'csv') return { format, drafts: readCsv(new TextEncoder().encode(text), input.columns) }
  return { format, drafts: readTextFormat(format, text, prepareTextLines) }
}

function readTextFormat(
  format: Exclude<ImportFormat, 'xlsx' | 'docx' | 'csv'>,
  text: string,
  prepareTextLines?: (lines: Run[][]) => Run[][],
): Draft[] {
  if (format === 'aiken') return readAiken(text)
  if (format === 'gift') return readGift(text)
  if (format === 'moodle_xml') return readMoodleXml(text)
  return readText(text, prepareTextLines)
}
