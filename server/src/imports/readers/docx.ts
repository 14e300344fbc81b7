import { XMLParser } from 'fast-xml-parser'
import { importLimits, importMessages, pictureMessages, type ImportMessage } from '@quiz/contracts'
import { Unreadable, type Draft, type DraftPicture, type Run } from './draft'
import { readLayout, type Line } from './layout'
import { trimRuns } from './runs'
import { unpackCounted } from './zip'

// Read from its parts so that each run's font is known; what it reads and notes: docs/decisions/032.

const KIND = 'a Word document (.docx)'
type XmlNode = Record<string, unknown>
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
})

const tagOf = (node: XmlNode) => Object.keys(node).find((key) => key !== ':@') ?? ''
const childrenOf = (node: XmlNode): XmlNode[] => {
  const value = node[tagOf(node)]
  return Array.isArray(value) ? (value as XmlNode[]) : []
}
const attr = (node: XmlNode | undefined, name: string) =>
  ((node?.[':@'] as Record<string, string> | undefined) ?? {})[name]
const child = (node: XmlNode, tag: string) => childrenOf(node).find((c) => tagOf(c) === tag)
const textNode = (node: XmlNode) => {
  const text = childrenOf(node).find((c) => '#text' in c)
  return text ? String(text['#text']) : ''
}

function parseXml(bytes: Uint8Array | undefined, part: string): XmlNode[] {
  if (!bytes) return []
  const xml = new TextDecoder().decode(bytes)
  if (/<!ENTITY/i.test(xml)) throw new Unreadable(`This ${KIND.replace(/^a /, '')} is damaged (${part}).`)
  try {
    return parser.parse(xml) as XmlNode[]
  } catch {
    throw new Unreadable(`This ${KIND.replace(/^a /, '')} is damaged (${part}).`)
  }
}

const fontOf = (rPr: XmlNode | undefined) => {
  const fonts = rPr ? child(rPr, 'w:rFonts') : undefined
  return fonts ? (attr(fonts, 'w:ascii') ?? attr(fonts, 'w:hAnsi') ?? attr(fonts, 'w:cs') ?? null) : null
}

function stylesFonts(nodes: XmlNode[]) {
  const root = nodes.find((node) => tagOf(node) === 'w:styles')
  const own = new Map<string, { font: string | null; basedOn: string | null }>()
  let defaultFont: string | null = null
  for (const node of root ? childrenOf(root) : []) {
    if (tagOf(node) === 'w:docDefaults') {
      const rPrDefault = child(node, 'w:rPrDefault')
      defaultFont = fontOf(rPrDefault ? child(rPrDefault, 'w:rPr') : undefined)
    }
    if (tagOf(node) === 'w:style') {
      const basedOn = child(node, 'w:basedOn')
      own.set(attr(node, 'w:styleId') ?? '', {
        font: fontOf(child(node, 'w:rPr')),
        basedOn: basedOn ? (attr(basedOn, 'w:val') ?? null) : null,
      })
    }
  }
  const resolved = (id: string | null | undefined, depth = 0): string | null => {
    if (!id || depth > 20) return null
    const style = own.get(id)
    return style ? (style.font ?? resolved(style.basedOn, depth + 1)) : null
  }
  return { defaultFont, styleFont: resolved }
}

const QUESTION_FORMATS = new Set([
  'decimal',
  'decimalZero',
  'decimalEnclosedParen',
  'decimalEnclosedFullstop',
  'decimalEnclosedCircle',
  'hindiNumbers',
  'hindiCounting',
  'upperRoman',
  'lowerRoman',
])
const OPTION_FORMATS = new Set(['lowerLetter', 'upperLetter', 'hindiVowels', 'hindiConsonants'])

// Word's automatic numbering (w:numPr) is not in the text: a list level's format tells a question from an option.
function numberingFormats(nodes: XmlNode[]) {
  const root = nodes.find((node) => tagOf(node) === 'w:numbering')
  const abstract = new Map<string, Map<string, string>>()
  const numToAbstract = new Map<string, string>()
  for (const node of root ? childrenOf(root) : []) {
    if (tagOf(node) === 'w:abstractNum') {
      const levels = new Map<string, string>()
      for (const level of childrenOf(node).filter((c) => tagOf(c) === 'w:lvl')) {
        const format = child(level, 'w:numFmt')
        levels.set(attr(level, 'w:ilvl') ?? '0', attr(format, 'w:val') ?? '')
      }
      abstract.set(attr(node, 'w:abstractNumId') ?? '', levels)
    } else if (tagOf(node) === 'w:num')
      numToAbstract.set(attr(node, 'w:numId') ?? '', attr(child(node, 'w:abstractNumId') ?? {}, 'w:val') ?? '')
  }
  return (numId: string, level: string) => abstract.get(numToAbstract.get(numId) ?? '')?.get(level) ?? null
}

const drawingNote: ImportMessage = {
  field: 'row',
  code: 'image',
  message: 'A chart, shape or text box in this question cannot be imported; paste it as a picture instead.',
}
const linkedNote: ImportMessage = { field: 'row', code: 'image', message: pictureMessages.linked }

function descendants(node: XmlNode, tag: string, found: XmlNode[] = []): XmlNode[] {
  if (tagOf(node) === tag) found.push(node)
  for (const c of childrenOf(node)) descendants(c, tag, found)
  return found
}

function relationships(nodes: XmlNode[]) {
  const root = nodes.find((node) => tagOf(node) === 'Relationships')
  const byId = new Map<string, { part: string; external: boolean }>()
  for (const node of root ? childrenOf(root) : []) {
    const target = attr(node, 'Target') ?? ''
    const part = target.startsWith('/') ? target.slice(1) : `word/${target}`.replace(/\/[^/]+\/\.\.\//g, '/')
    byId.set(attr(node, 'Id') ?? '', { part, external: attr(node, 'TargetMode') === 'External' })
  }
  return byId
}
const equationNote: ImportMessage = {
  field: 'row',
  code: 'equation',
  message: 'An equation in this question cannot be imported; type it as TeX between $ signs instead.',
}
const tableNote = (message: string): ImportMessage => ({ field: 'row', code: 'table', message })
const mergedCells = tableNote(
  "A table in this question has merged cells, which a question's table cannot hold: split them and import again.",
)
const nestedTable = tableNote("A table in this question holds another table, which a question's table cannot hold.")
const pictureInTable = tableNote('A table in this question holds a picture, which a table cell cannot hold.')
const ALIGN: Record<string, string> = { left: ':---', start: ':---', center: ':---:', right: '---:', end: '---:' }

export function readDocx(bytes: Uint8Array, prepare: (runs: Run[]) => Run[] = (runs) => runs): Draft[] {
  const entries = unpackCounted(
    bytes,
    KIND,
    (name) =>
      ['word/document.xml', 'word/styles.xml', 'word/numbering.xml', 'word/_rels/document.xml.rels'].includes(name) ||
      name.startsWith('word/media/'),
    undefined,
    // The text's parser holds about 40 times its size: capped lower than the archive (issue 41, L4).
    (name) =>
      name === 'word/document.xml'
        ? { bytes: importLimits.documentBytes, message: importMessages.documentTooLarge }
        : undefined,
  )
  const documentXml = entries.get('word/document.xml')
  if (!documentXml) throw new Unreadable(`This file is not ${KIND}: it may be an Excel workbook or another zip.`)
  const { defaultFont, styleFont } = stylesFonts(parseXml(entries.get('word/styles.xml'), 'styles'))
  const document = parseXml(documentXml, 'document').find((node) => tagOf(node) === 'w:document')
  const body = document ? child(document, 'w:body') : undefined
  if (!body) throw new Unreadable(`This ${KIND.replace(/^a /, '')} has no body.`)

  const formatOf = numberingFormats(parseXml(entries.get('word/numbering.xml'), 'numbering'))
  const rels = relationships(parseXml(entries.get('word/_rels/document.xml.rels'), 'relationships'))
  const pictureOf = (id: string | undefined, alt: string): DraftPicture | ImportMessage => {
    const rel = rels.get(id ?? '')
    if (rel?.external) return linkedNote
    const name = `The picture ${rel?.part.replace(/^word\/media\//, '') ?? id ?? ''}`.trim()
    const bytes = rel && entries.get(rel.part)
    if (!bytes) return { field: 'row', code: 'image', message: `${name} is missing from this Word file.` }
    return { bytes, alt, name }
  }
  const lines: Line[] = []
  let paragraphNo = 0
  let questionNumber = 0
  let optionNumber = 0
  const listMarker = (pPr: XmlNode | undefined): string | null => {
    const numPr = pPr ? child(pPr, 'w:numPr') : undefined
    if (!numPr) return null
    const numId = attr(child(numPr, 'w:numId'), 'w:val') ?? '0'
    const format = formatOf(numId, attr(child(numPr, 'w:ilvl'), 'w:val') ?? '0')
    if (numId === '0' || !format) return null
    if (QUESTION_FORMATS.has(format)) {
      optionNumber = 0
      return `${++questionNumber}. `
    }
    if (OPTION_FORMATS.has(format)) return `(${'abcdefghij'[Math.min(optionNumber++, 9)]}) `
    return null
  }

  const paragraph = (p: XmlNode) => {
    paragraphNo++
    const pPr = child(p, 'w:pPr')
    const pStyle = pPr ? child(pPr, 'w:pStyle') : undefined
    const paragraphFont = styleFont(attr(pStyle, 'w:val')) ?? defaultFont
    const marker = listMarker(pPr)
    let line: Line = {
      no: paragraphNo,
      runs: marker ? [{ text: marker, font: null }] : [],
      notes: [],
      pictures: [],
    }
    const breakLine = () => {
      lines.push(line)
      line = { no: paragraphNo, runs: [], notes: [], pictures: [] }
    }
    const note = (message: ImportMessage) => {
      if (!line.notes.some((known) => known.message === message.message)) line.notes.push(message)
    }
    const add = (found: DraftPicture | ImportMessage) => {
      if ('bytes' in found) line.pictures!.push(found)
      else note(found)
    }
    const drawing = (node: XmlNode) => {
      const blips = descendants(node, 'a:blip')
      const docPr = descendants(node, 'wp:docPr')[0]
      const alt = attr(docPr, 'descr') ?? attr(docPr, 'title') ?? ''
      if (blips.length === 0 || descendants(node, 'wps:txbx').length > 0) return note(drawingNote)
      for (const blip of blips) {
        const embed = attr(blip, 'r:embed')
        add(embed ? pictureOf(embed, alt) : attr(blip, 'r:link') ? linkedNote : drawingNote)
      }
    }
    const vml = (node: XmlNode) => {
      const images = descendants(node, 'v:imagedata')
      if (images.length === 0) return note(drawingNote)
      for (const image of images) add(pictureOf(attr(image, 'r:id'), attr(image, 'o:title') ?? ''))
    }
    const run = (r: XmlNode) => {
      const rPr = child(r, 'w:rPr')
      const rStyle = rPr ? child(rPr, 'w:rStyle') : undefined
      const font = fontOf(rPr) ?? styleFont(attr(rStyle, 'w:val')) ?? paragraphFont
      for (const part of childrenOf(r)) {
        const tag = tagOf(part)
        if (tag === 'w:t') line.runs.push({ text: textNode(part), font })
        else if (tag === 'w:tab') line.runs.push({ text: '\t', font })
        else if (tag === 'w:noBreakHyphen') line.runs.push({ text: '-', font })
        else if (tag === 'w:br' || tag === 'w:cr') {
          if (attr(part, 'w:type') === 'page') continue
          breakLine()
        } else if (tag === 'w:drawing') drawing(part)
        else if (tag === 'w:pict') vml(part)
        else if (tag === 'mc:AlternateContent') {
          // Word writes a drawing twice: the modern one (mc:Choice) and a VML fallback for old readers.
          const choice = child(part, 'mc:Choice')
          const inner = choice
            ? childrenOf(choice).find((c) => tagOf(c) === 'w:drawing' || tagOf(c) === 'w:pict')
            : undefined
          if (!inner) note(drawingNote)
          else if (tagOf(inner) === 'w:drawing') drawing(inner)
          else vml(inner)
        } else if (tag === 'w:object') note(equationNote)
      }
    }
    const inline = (nodes: XmlNode[]) => {
      for (const node of nodes) {
        const tag = tagOf(node)
        if (tag === 'w:r') run(node)
        else if (tag === 'm:oMath' || tag === 'm:oMathPara') note(equationNote)
        else if (tag === 'w:hyperlink' || tag === 'w:ins' || tag === 'w:smartTag' || tag === 'w:fldSimple')
          inline(childrenOf(node))
        else if (tag === 'w:sdt') inline(childrenOf(child(node, 'w:sdtContent') ?? {}))
      }
    }
    inline(childrenOf(p))
    lines.push(line)
  }

  const countParagraphs = (node: XmlNode): number =>
    tagOf(node) === 'w:p' ? 1 : childrenOf(node).reduce((sum, c) => sum + countParagraphs(c), 0)

  // A Word table becomes pipe rows (API.md "Tables in questions"), each cell read as any paragraph (fonts too).
  const table = (tbl: XmlNode) => {
    const first = paragraphNo + 1
    const refuse = (why: ImportMessage) => {
      lines.push({ no: first, runs: [], notes: [why], pictures: [] })
      paragraphNo = first - 1 + countParagraphs(tbl)
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
      const no = paragraphNo + 1
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

  const block = (nodes: XmlNode[]) => {
    for (const node of nodes) {
      const tag = tagOf(node)
      if (tag === 'w:p') paragraph(node)
      else if (tag === 'w:tbl') table(node)
      else if (tag === 'w:sdt') block(childrenOf(child(node, 'w:sdtContent') ?? {}))
    }
  }
  block(childrenOf(body))
  return readLayout(lines.map((line) => ({ ...line, runs: prepare(line.runs) })))
}
