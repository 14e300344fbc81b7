import { importLimits, type ImportMessage } from '@quiz/contracts'
import { emptyDraft, plain, Unreadable, type Draft, type DraftPicture } from './draft'
import { clozeNote, isCloze, isEmpty, moodleText } from './moodle-text'
import { partialMarkingNote } from './moodle-xml'
import { MAX_LINES_PER_QUESTION, tooManyLines } from './layout'
import { tooMany } from './xlsx'

// What of GIFT comes in, and how: docs/decisions/045 "In the code".

const PLACEHOLDER = '\uE000'
const ESCAPED: Record<string, string> = {
  '~': '\uE001',
  '=': '\uE002',
  '#': '\uE003',
  '{': '\uE004',
  '}': '\uE005',
  ':': '\uE006',
}
const UNESCAPED = Object.fromEntries(Object.entries(ESCAPED).map(([char, code]) => [code, char]))

const protect = (text: string) =>
  text.replace(/\\([~=#{}:n\\])/g, (_, char: string) =>
    char === 'n' ? '\n' : char === '\\' ? PLACEHOLDER : ESCAPED[char]!,
  )
const restore = (text: string) =>
  text.replace(/[\uE001-\uE006]/g, (code) => UNESCAPED[code]!).replaceAll(PLACEHOLDER, '\\')

function giftSource(text: string): { body: string; isHtml: boolean } {
  const format = /^\s*\[(html|moodle|markdown|plain)\]/i.exec(text)
  const body = restore(format ? text.slice(format[0].length) : text).trim()
  const kind = format?.[1]?.toLowerCase()
  // Without a prefix Moodle's default format lets HTML through; `[plain]` and `[markdown]` are text.
  return { body, isHtml: kind === 'html' || (kind === undefined && /<[a-z!][^>]*>/i.test(body)) }
}

function giftText(text: string, field: string, notes: ImportMessage[], into: DraftPicture[] | null = null) {
  const { body, isHtml } = giftSource(text)
  return moodleText(body, isHtml, field, notes, { into }).text
}

interface Answer {
  right: boolean
  weight: number | null
  text: string
  feedback: string
}

function splitAnswers(body: string): { answers: Answer[]; general: string } {
  let general = ''
  const generalAt = body.indexOf('####')
  if (generalAt >= 0) {
    general = body.slice(generalAt + 4)
    body = body.slice(0, generalAt)
  }
  const answers: Answer[] = []
  for (const match of body.matchAll(/([=~])([^=~]*)/g)) {
    let text = match[2]!
    let feedback = ''
    const hash = text.indexOf('#')
    if (hash >= 0) {
      feedback = text.slice(hash + 1)
      text = text.slice(0, hash)
    }
    let weight: number | null = null
    const percent = /^\s*%(-?\d+(?:\.\d+)?)%/.exec(text)
    if (percent) {
      weight = Number(percent[1])
      text = text.slice(percent[0].length)
    }
    answers.push({ right: match[1] === '=', weight, text, feedback })
  }
  return { answers, general }
}

function unsupportedType(source: string, answers: Answer[]): string | null {
  // General feedback (`####…`) is no answer: Moodle takes it out before deciding, so `{####…}` is an essay.
  const generalAt = source.indexOf('####')
  const body = generalAt >= 0 ? source.slice(0, generalAt) : source
  const trimmed = body.trim()
  if (trimmed === '') return 'essay'
  if (trimmed.startsWith('#')) return 'numerical'
  // A `~` makes multiple choice whatever the answers hold (`->` included).
  if (body.includes('~')) {
    // Without an `=` Moodle makes it multiple answer, unless one `~%100%` answer alone carries the credit.
    if (body.includes('=')) return null
    const credited = answers.filter((answer) => (answer.weight ?? 0) > 0)
    return credited.length === 1 && credited[0]!.weight === 100 ? null : 'multiple answer'
  }
  if (body.includes('=') && answers.some((answer) => answer.text.includes('->'))) return 'matching'
  if (/^(T|F|TRUE|FALSE)\s*(#|$)/i.test(trimmed)) return 'true/false'
  return 'short answer'
}

/**
 * A numerical question (`{#3.14:0.01}`, `{#1..5}`, `{#=3.14:0.01 =%50%3:0.5}`) is numeric: its full-credit answer,
 * a value with its tolerance or a range; answers of partial credit are dropped, and said.
 */
function readNumerical(body: string, draft: Draft, notes: ImportMessage[]) {
  let general = ''
  const generalAt = body.indexOf('####')
  if (generalAt >= 0) {
    general = body.slice(generalAt + 4)
    body = body.slice(0, generalAt)
  }
  body = body.trim().slice(1)
  const answers = body.includes('=')
    ? [...body.matchAll(/=([^=]*)/g)].map((match) => {
        const weight = /^\s*%(-?\d+(?:\.\d+)?)%/.exec(match[1]!)
        return {
          weight: weight ? Number(weight[1]) : 100,
          text: weight ? match[1]!.slice(weight[0].length) : match[1]!,
        }
      })
    : [{ weight: 100, text: body }]
  const right = answers.find((answer) => answer.weight === 100)
  const [written = '', feedback = ''] = (right?.text ?? '').split(/#(.*)/s)
  const key = restore(written).trim()
  const range = /^(.+?)\.\.(.+)$/s.exec(key)
  const valued = range ? null : /^([^:]*)(?::(.*))?$/s.exec(key)
  draft.numeric = {
    value: valued?.[1]?.trim() ?? '',
    tolerance: valued?.[2]?.trim() ?? '',
    min: range?.[1]?.trim() ?? '',
    max: range?.[2]?.trim() ?? '',
    decimals: '',
  }
  const dropped = answers.filter((answer) => answer !== right && answer.weight > 0)
  if (dropped.length > 0)
    notes.push({
      field: 'answer',
      code: 'partial_credit_dropped',
      message: `Answers of partial credit (${dropped.map((answer) => `${answer.weight}%`).join(', ')}) were dropped: only the full-credit answer scores here.`,
    })
  const generalText = giftText(general, 'hint', notes)
  const hint = isEmpty(generalText) ? giftText(feedback, 'hint', notes) : generalText
  if (!isEmpty(hint)) draft.hint = hint
  draft.notes.push(...notes)
}

const count = (text: string, char: string) => {
  let n = 0
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) n++
  return n
}

export function readGift(source: string): Draft[] {
  const lines = source.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)
  const drafts: Draft[] = []
  let topic: string | null = null
  let block: { first: number; lines: string[]; opens: number; closes: number } | null = null

  const finish = () => {
    if (!block) return
    const text = protect(block.lines.join('\n'))
    const row = block.first
    block = null
    const open = text.indexOf('{')
    const close = open >= 0 ? text.indexOf('}', open) : -1
    let before = open >= 0 ? text.slice(0, open) : text
    const after = close >= 0 ? text.slice(close + 1) : ''
    const body = open >= 0 && close >= 0 ? text.slice(open + 1, close) : null
    const title = /^\s*::(.*?)::/s.exec(before)
    if (title) before = before.slice(title[0].length)
    const notes: ImportMessage[] = []
    const draft = emptyDraft(row, { mixed: [] })
    if (topic) draft.topic = plain(topic)
    drafts.push(draft)
    if (drafts.length > importLimits.questions) throw new Unreadable(tooMany)
    if (isCloze(text)) {
      draft.text = { mixed: plain(restore(text).trim()) }
      draft.notes.push(clozeNote())
      return
    }
    draft.text = giftText(after.trim() ? `${before.trim()} _____ ${after.trim()}` : before, 'text', notes, draft.images)
    if (body === null) {
      draft.notes.push({
        field: 'row',
        code: 'unsupported_type',
        message: 'GIFT description items (text without an {answers} block) cannot be imported.',
      })
      return
    }
    const { answers, general } = splitAnswers(body)
    const type = unsupportedType(body, answers)
    if (type === 'essay') {
      const model = giftText(general, 'model_answer', notes)
      draft.written = { type: 'written', marks: '1', wordLimit: '', modelAnswer: isEmpty(model) ? null : model }
      draft.notes.push(...notes)
      return
    }
    if (type === 'numerical') {
      readNumerical(body, draft, notes)
      return
    }
    draft.multiple = type === 'multiple answer'
    if (type && !draft.multiple) {
      draft.notes.push({
        field: 'row',
        code: 'unsupported_type',
        message: `GIFT ${type} questions cannot be imported; only multiple choice with one right answer.`,
      })
      return
    }
    draft.optionImages = answers.map(() => [])
    draft.options = answers.map((answer, index) =>
      giftText(answer.text, `options.${index}.text`, notes, draft.optionImages[index]),
    )
    // Multiple answer (`~%50%` weights, no `=`): every answer with a positive weight is right.
    draft.answer = {
      marks: answers.map((answer) =>
        draft.multiple ? (answer.weight ?? 0) > 0 : answer.right || answer.weight === 100,
      ),
    }
    const partial = answers.filter(
      (answer) => !answer.right && answer.weight !== null && answer.weight !== 0 && answer.weight < 100,
    )
    const split = answers.flatMap((answer) =>
      answer.weight !== null && answer.weight > 0 && answer.weight < 100 ? [answer.weight] : [],
    )
    if (draft.multiple && split.length > 0) notes.push(partialMarkingNote(split))
    if (!draft.multiple && partial.length > 0 && draft.answer.marks.filter(Boolean).length === 1)
      notes.push({
        field: 'correct',
        code: 'partial_credit_dropped',
        message: `Partial credit (${partial.map((answer) => `${answer.weight}%`).join(', ')}) was dropped: only the right answer scores here.`,
      })
    const right = answers.find((answer) =>
      draft.multiple ? (answer.weight ?? 0) > 0 : answer.right || answer.weight === 100,
    )
    const generalText = giftText(general, 'hint', notes)
    const hint = isEmpty(generalText) ? giftText(right?.feedback ?? '', 'hint', notes) : generalText
    if (!isEmpty(hint)) draft.hint = hint
    draft.notes.push(...notes)
  }

  lines.forEach((line, index) => {
    const trimmed = line.trim()
    if (trimmed.startsWith('//')) return
    const category = /^\$CATEGORY:\s*(.*)$/i.exec(trimmed)
    if (category) {
      finish()
      const parts = category[1]!
        .split('/')
        .map((part) => part.trim())
        .filter((part) => part && !/^\$\w+\$$/.test(part))
      topic = parts.at(-1) ?? null
      return
    }
    if (trimmed === '') {
      // A blank line inside the braces does not end the question; braces counted as lines come (joins are quadratic).
      if (block && !(block.opens > block.closes)) finish()
      return
    }
    if (!block) block = { first: index + 1, lines: [], opens: 0, closes: 0 }
    block.lines.push(line)
    if (block.lines.length > MAX_LINES_PER_QUESTION) throw new Unreadable(tooManyLines(block.first))
    block.opens += count(line, '{')
    block.closes += count(line, '}')
  })
  finish()
  return drafts
}
