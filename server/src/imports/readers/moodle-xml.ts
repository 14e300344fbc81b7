import { XMLParser } from 'fast-xml-parser'
import { importLimits, pictureMessages, type ImportMessage } from '@quiz/contracts'
import { decodeDataUrl } from '../../pictures/picture-encoding'
import { emptyDraft, plain, Unreadable, type Draft, type DraftPicture, type DraftText } from './draft'
import { isEmpty, moodleText, refusalMessage } from './moodle-text'
import { tooMany } from './xlsx'

// What of Moodle XML comes in, and how: docs/decisions/045 "In the code".

const TYPE_NAMES: Record<string, string> = {
  truefalse: 'true/false',
  shortanswer: 'short answer',
  essay: 'essay',
  matching: 'matching',
  multianswer: 'embedded answers (Cloze)',
  cloze: 'embedded answers (Cloze)',
  description: 'description',
  calculated: 'calculated',
  calculatedmulti: 'calculated multichoice',
  calculatedsimple: 'simple calculated',
  ddwtos: 'drag and drop into text',
  ddimageortext: 'drag and drop onto image',
  ddmarker: 'drag and drop markers',
  gapselect: 'select missing words',
  randomsamatch: 'random short-answer matching',
  ordering: 'ordering',
}

type Node = Record<string, unknown>
const textOf = (node: unknown): string => {
  if (node === undefined || node === null) return ''
  if (typeof node !== 'object') return String(node)
  const text = (node as Node).text
  return text === undefined || text === null ? '' : typeof text === 'object' ? '' : String(text)
}

// HTML only where `format` is `html` (Moodle's default); other formats are text, so "a < b" keeps its words.
function read(node: unknown, field: string, notes: ImportMessage[], into: DraftPicture[] | null = null): DraftText {
  const format = node && typeof node === 'object' ? String((node as Node)['@format'] ?? 'html') : 'html'
  return moodleText(textOf(node), format.toLowerCase() === 'html', field, notes, { into, files: filesOf(node) }).text
}

function filesOf(node: unknown): Map<string, string> {
  const files = new Map<string, string>()
  if (!node || typeof node !== 'object') return files
  for (const file of ((node as Node).file ?? []) as Node[]) {
    if (!file || typeof file !== 'object') continue
    const path = String(file['@path'] ?? '/').replace(/^\/+/, '')
    files.set(`${path}${String(file['@name'] ?? '')}`, String(file['#text'] ?? ''))
  }
  return files
}

// Counted as the text is walked once: counting from the start for each question is quadratic.
function questionLines(xml: string): number[] {
  const lines: number[] = []
  const found = /<question\b/g
  let line = 1
  let at = 0
  for (let match = found.exec(xml); match; match = found.exec(xml)) {
    for (let next = xml.indexOf('\n', at); next !== -1 && next < match.index; next = xml.indexOf('\n', next + 1)) line++
    at = match.index
    lines.push(line)
  }
  return lines
}

const numberCell = (text: string) => {
  const trimmed = text.trim()
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? String(Number(trimmed)) : trimmed
}

/** An essay is a written question: its grade the marks, Moodle's word limit, grader information the model answer. */
function readEssay(question: Node, draft: Draft, notes: ImportMessage[]) {
  const limited = textOf({ text: question.wordlimitenabled }).trim() === '1'
  const graderInfo = read(question.graderinfo, 'model_answer', notes)
  const general = read(question.generalfeedback, 'model_answer', notes)
  const model = !isEmpty(graderInfo) ? graderInfo : !isEmpty(general) ? general : null
  draft.written = {
    type: 'written',
    marks: numberCell(textOf({ text: question.defaultgrade })) || '1',
    wordLimit: limited ? numberCell(textOf({ text: question.maxwordlimit })) : '',
    modelAnswer: model,
  }
  draft.notes.push(...notes)
}

/** Said on a multiple question whose file split the credit: here the right set scores, partial marks by section. */
export const partialMarkingNote = (split: readonly number[]): ImportMessage => ({
  field: 'correct',
  code: 'partial_marking',
  message: `The file splits the credit among the right options (${split.map((fraction) => `${fraction}%`).join(', ')}); here every option with credit is right, and partial marking is set on the paper's section (multiple: partial).`,
})

/**
 * A numerical question is numeric: its first answer of fraction 100, with that answer's tolerance (Moodle's
 * `<tolerance>`, absolute). Other credited answers are dropped, and said; units are not read.
 */
function readNumerical(question: Node, draft: Draft, notes: ImportMessage[]) {
  const answers = (question.answer ?? []) as Node[]
  const fractions = answers.map((answer) => Number(answer['@fraction'] ?? 0))
  const right = answers[fractions.indexOf(100)]
  // No full-credit answer: the key is empty, and the row says that a numeric question needs one.
  const value = right ? textOf(right).trim() : ''
  draft.numeric = {
    value,
    tolerance: right ? textOf({ text: right.tolerance }).trim() : '',
    min: '',
    max: '',
    decimals: '',
  }
  const dropped = fractions.filter((fraction, index) => fraction > 0 && index !== fractions.indexOf(100))
  if (dropped.length > 0)
    notes.push({
      field: 'answer',
      code: 'partial_credit_dropped',
      message: `Other answers with credit (${dropped.map((fraction) => `${fraction}%`).join(', ')}) were dropped: only the first full-credit answer, with its tolerance, scores here.`,
    })
  const general = read(question.generalfeedback, 'hint', notes)
  const hint = isEmpty(general) && right ? read(right.feedback, 'hint', notes) : general
  if (!isEmpty(hint)) draft.hint = hint
  draft.notes.push(...notes)
}

export function readMoodleXml(xml: string): Draft[] {
  xml = xml.replace(/^\uFEFF/, '')
  if (/<!ENTITY/i.test(xml)) throw new Unreadable('This XML file declares entities, which Moodle exports never do.')
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    trimValues: false,
    processEntities: true,
    isArray: (name) => name === 'question' || name === 'answer' || name === 'file',
  })
  let parsed: Node
  try {
    parsed = parser.parse(xml, true) as Node
  } catch (error) {
    throw new Unreadable(`This XML file is broken: ${(error as Error).message.split('\n')[0]}`)
  }
  const quiz = parsed.quiz as Node | undefined
  if (!quiz || typeof quiz !== 'object') throw new Unreadable('This XML file is not a Moodle XML export (no <quiz>).')
  const questions = (quiz.question ?? []) as Node[]
  const lineOf = questionLines(xml)

  const drafts: Draft[] = []
  let topic: string | null = null
  questions.forEach((question, index) => {
    const type = String(question['@type'] ?? '')
    if (type === 'category') {
      const path = textOf(question.category)
      const parts = path
        .split('/')
        .map((part) => part.trim())
        .filter((part) => part && !/^\$\w+\$$/.test(part))
      topic = parts.at(-1) ?? null
      return
    }
    const notes: ImportMessage[] = []
    const images: DraftPicture[] = []
    const draft = emptyDraft(lineOf[index] ?? 1, read(question.questiontext, 'text', notes, images))
    draft.images = images
    if (topic) draft.topic = plain(topic)
    drafts.push(draft)
    if (drafts.length > importLimits.questions) throw new Unreadable(tooMany)
    if (type === 'essay') {
      readEssay(question, draft, notes)
      return
    }
    if (type === 'numerical') {
      readNumerical(question, draft, notes)
      return
    }
    if (type !== 'multichoice') {
      draft.notes.push({
        field: 'row',
        code: 'unsupported_type',
        message: `Moodle ${TYPE_NAMES[type] ?? type} questions cannot be imported; only multiple choice (one or several right answers), numerical and essay.`,
      })
      return
    }
    // Moodle reads `single` as true for "true" or "1" (its default when absent), otherwise as multiple answer.
    const single = textOf({ text: question.single }).trim().toLowerCase()
    draft.multiple = single !== '' && single !== 'true' && single !== '1'
    const imageName = textOf({ text: question.image }).trim()
    const imageBase64 = textOf({ text: question.image_base64 }).trim()
    if (imageBase64 !== '') {
      const name = `The picture ${imageName || 'of <image_base64>'}`
      const bytes = decodeDataUrl(`data:;base64,${imageBase64}`)
      if (typeof bytes === 'string') notes.push({ field: 'image', code: 'image', message: refusalMessage(name, bytes) })
      else draft.images.push({ bytes, alt: '', name })
    } else if (imageName !== '')
      notes.push({
        field: 'image',
        code: 'image',
        message: /^(https?:)?\/\//i.test(imageName)
          ? pictureMessages.linked
          : `The picture ${imageName} is not in this file (no <image_base64>): export the question again with its files.`,
      })
    const answers = (question.answer ?? []) as Node[]
    const fractions = answers.map((answer) => Number(answer['@fraction'] ?? 0))
    draft.optionImages = answers.map(() => [])
    draft.options = answers.map((answer, n) => read(answer, `options.${n}.text`, notes, draft.optionImages[n]))
    // Multiple answer: every option with a positive fraction is right; the split of the credit is the section's.
    draft.answer = { marks: fractions.map((fraction) => (draft.multiple ? fraction > 0 : fraction === 100)) }
    const partial = fractions.filter((fraction) => fraction !== 0 && fraction !== 100)
    const split = fractions.filter((fraction) => fraction > 0 && fraction < 100)
    if (draft.multiple && split.length > 0) notes.push(partialMarkingNote(split))
    if (!draft.multiple && partial.length > 0 && fractions.filter((fraction) => fraction === 100).length === 1)
      notes.push({
        field: 'correct',
        code: 'partial_credit_dropped',
        message: `Partial credit (${partial.map((fraction) => `${fraction}%`).join(', ')}) was dropped: only the right answer scores here.`,
      })
    const general = read(question.generalfeedback, 'hint', notes)
    const right = answers[draft.multiple ? fractions.findIndex((fraction) => fraction > 0) : fractions.indexOf(100)]
    const hint = isEmpty(general) && right ? read(right.feedback, 'hint', notes) : general
    if (!isEmpty(hint)) draft.hint = hint
    draft.notes.push(...notes)
  })
  return drafts
}
