import { XMLParser } from 'fast-xml-parser'
import { importLimits, importMessages, type ImportMessage } from '@quiz/contracts'
import { Unreadable, type Draft, type DraftPicture, type Run } from './draft'
import { createParagraphReader, linkedNote, type DocxReading } from './docx-paragraph'
import { readTable } from './docx-table'
import { attr, child, childrenOf, fontOf, tagOf, type XmlNode } from './docx-xml'
import { readLayout } from './layout'
import { unpackCounted } from './zip'

// Read from its parts so that each run's font is known; what it reads and notes: docs/decisions/032.

const KIND = 'a Word document (.docx)'
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
})

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
  const reading: DocxReading = { lines: [], paragraphNo: 0 }
  const paragraph = createParagraphReader({ defaultFont, styleFont, formatOf, pictureOf }, reading)

  const block = (nodes: XmlNode[]) => {
    for (const node of nodes) {
      const tag = tagOf(node)
      if (tag === 'w:p') paragraph(node)
      else if (tag === 'w:tbl') readTable(node, reading, paragraph, prepare)
      else if (tag === 'w:sdt') block(childrenOf(child(node, 'w:sdtContent') ?? {}))
    }
  }
  block(childrenOf(body))
  return readLayout(reading.lines.map((line) => ({ ...line, runs: prepare(line.runs) })))
}
