import { XMLParser } from 'fast-xml-parser'
import { importLimits } from '@quiz/contracts'
import { emptyDraft, plain, Unreadable, type Draft } from './draft'
import { hasImage, htmlToText } from './html'
import { tooMany } from './xlsx'

// Moodle XML (Moodle's "Moodle XML format"): `<quiz>` of `<question type="…">`. A `category` question sets the topic
// (its path's last part) of those after it; `multichoice` with `<single>true</single>` comes in (the answer of
// fraction 100 is right; general feedback, else the right answer's feedback, is the hint); every other type is a
// rejected row naming it. Texts are HTML, reduced to text; a picture in one is said and rejects the row.

const TYPE_NAMES: Record<string, string> = {
  truefalse: 'true/false',
  shortanswer: 'short answer',
  numerical: 'numerical',
  essay: 'essay',
  matching: 'matching',
  multianswer: 'embedded answers (cloze)',
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

export function readMoodleXml(xml: string): Draft[] {
  xml = xml.replace(/^\uFEFF/, '')
  if (/<!ENTITY/i.test(xml)) throw new Unreadable('This XML file declares entities, which Moodle exports never do.')
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    trimValues: false,
    processEntities: true,
    isArray: (name) => name === 'question' || name === 'answer',
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
  const lineOf = [...xml.matchAll(/<question\b/g)].map((match) => xml.slice(0, match.index).split('\n').length)

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
    const html = textOf(question.questiontext)
    const draft = emptyDraft(lineOf[index] ?? 1, { mixed: plain(htmlToText(html)) })
    if (topic) draft.topic = plain(topic)
    drafts.push(draft)
    if (drafts.length > importLimits.questions) throw new Unreadable(tooMany)
    if (type !== 'multichoice') {
      draft.notes.push({
        field: 'row',
        code: 'unsupported_type',
        message: `Moodle ${TYPE_NAMES[type] ?? type} questions cannot be imported; only multiple choice with one right answer.`,
      })
      return
    }
    if (String(textOf({ text: question.single })).trim() === 'false') {
      draft.notes.push({
        field: 'row',
        code: 'unsupported_type',
        message: 'Moodle multiple choice with several right answers cannot be imported; only one right answer.',
      })
      return
    }
    if (hasImage(html))
      draft.notes.push({
        field: 'text',
        code: 'image',
        message: 'The question shows a picture, which cannot be imported.',
      })
    const answers = (question.answer ?? []) as Node[]
    draft.options = answers.map((answer, n) => {
      const answerHtml = textOf(answer)
      if (hasImage(answerHtml))
        draft.notes.push({
          field: `options.${n}.text`,
          code: 'image',
          message: 'This option shows a picture, which cannot be imported.',
        })
      return { mixed: plain(htmlToText(answerHtml)) }
    })
    draft.answer = { marks: answers.map((answer) => Number(answer['@fraction']) === 100) }
    const general = htmlToText(textOf(question.generalfeedback))
    const right = answers.find((answer) => Number(answer['@fraction']) === 100)
    const hint = general || htmlToText(textOf(right?.feedback))
    if (hint) draft.hint = { mixed: plain(hint) }
  })
  return drafts
}
