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
  file: { bytes: Uint8Array; name: string } | null
  text: string | null
  format: ImportFormat | undefined
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

// By hand: `(<!--[\s\S]*?-->\s*)*` backtracks exponentially over a head of unclosed comments.
function opensAsMoodleXml(head: string): boolean {
  let at = head.length - head.trimStart().length
  if (head.startsWith('<?xml', at)) {
    const end = head.indexOf('>', at)
    if (end < 0) return false
    at = end + 1
  }
  for (;;) {
    while (at < head.length && /\s/.test(head[at]!)) at++
    if (!head.startsWith('<!--', at)) break
    const end = head.indexOf('-->', at + 4)
    if (end < 0) return false
    at = end + 3
  }
  return /^<quiz\b/i.test(head.slice(at, at + 6))
}

// One pass with flags: `[^}]*[=~][^}]*\}` after `\s*` backtracks polynomially over a paste of braces.
export function hasGiftAnswers(text: string): boolean {
  let open = false
  let marked = false
  let braceOnLine = false
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at)
    if (char === 0x0a) braceOnLine = false
    if (!open) {
      if (char === 0x7b /* { */ && !braceOnLine) {
        open = true
        marked = false
      }
      if (char === 0x7b) braceOnLine = true
    } else if (char === 0x3d /* = */ || char === 0x7e /* ~ */) marked = true
    else if (char === 0x7d /* } */) {
      if (marked) return true
      open = false
    }
  }
  return false
}

// One line at a time, so that no expression runs over the whole input.
function someLine(text: string, test: (line: string) => boolean): boolean {
  let start = 0
  while (start <= text.length) {
    let end = text.indexOf('\n', start)
    if (end < 0) end = text.length
    if (test(text.slice(start, text[end - 1] === '\r' ? end - 1 : end))) return true
    start = end + 1
  }
  return false
}

// Each test is anchored or bounded, so the guess is linear in the paste's length.
export function guessTextFormat(text: string): ImportFormat {
  const head = text.slice(0, 4096)
  if (opensAsMoodleXml(head)) return 'moodle_xml'
  const firstLine = head.split(/\r?\n/, 1)[0] ?? ''
  if (/(^|[,;\t"])\s*question_(en|ne)\s*("|[,;\t]|$)/i.test(firstLine)) return 'csv'
  if (someLine(text, (line) => /^ANSWER:\s*[A-Z]\s*$/.test(line))) return 'aiken'
  if (hasGiftAnswers(text) || someLine(text, (line) => line.trimStart().startsWith('$CATEGORY:'))) return 'gift'
  return 'text'
}

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
