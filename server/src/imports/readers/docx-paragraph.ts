import { pictureMessages, type ImportMessage } from '@quiz/contracts'
import type { DraftPicture } from './draft'
import { attr, child, childrenOf, descendants, fontOf, tagOf, textNode, type XmlNode } from './docx-xml'
import type { Line } from './layout'

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

const drawingNote: ImportMessage = {
  field: 'row',
  code: 'image',
  message: 'A chart, shape or text box in this question cannot be imported; paste it as a picture instead.',
}
export const linkedNote: ImportMessage = { field: 'row', code: 'image', message: pictureMessages.linked }

const equationNote: ImportMessage = {
  field: 'row',
  code: 'equation',
  message: 'An equation in this question cannot be imported; type it as TeX between $ signs instead.',
}

/** What a document's paragraphs are read into; a table moves the paragraph count past paragraphs it refuses. */
export interface DocxReading {
  lines: Line[]
  paragraphNo: number
}

export interface DocxStyles {
  defaultFont: string | null
  styleFont: (id: string | null | undefined) => string | null
  formatOf: (numId: string, level: string) => string | null
  pictureOf: (id: string | undefined, alt: string) => DraftPicture | ImportMessage
}

export function createParagraphReader(
  { defaultFont, styleFont, formatOf, pictureOf }: DocxStyles,
  reading: DocxReading,
) {
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

  return (p: XmlNode) => {
    reading.paragraphNo++
    const pPr = child(p, 'w:pPr')
    const pStyle = pPr ? child(pPr, 'w:pStyle') : undefined
    const paragraphFont = styleFont(attr(pStyle, 'w:val')) ?? defaultFont
    const marker = listMarker(pPr)
    let line: Line = {
      no: reading.paragraphNo,
      runs: marker ? [{ text: marker, font: null }] : [],
      notes: [],
      pictures: [],
    }
    const breakLine = () => {
      reading.lines.push(line)
      line = { no: reading.paragraphNo, runs: [], notes: [], pictures: [] }
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
    reading.lines.push(line)
  }
}
