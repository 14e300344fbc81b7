import { importColumns, importOptionLetters } from '@quiz/contracts'
import { emptyDraft, Unreadable, type Draft, type DraftText, type Run } from './draft'

// The spreadsheet layout of API.md, for the xlsx and csv readers; headings match case-insensitively, in any order.

export type Column = (typeof importColumns)[number]
type MixedColumn = 'question' | `option_${(typeof importOptionLetters)[number]}` | 'hint'
export type SheetColumn = Column | MixedColumn
const known = new Set<string>(importColumns)

export const columnName = (header: string) =>
  header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')

const nepaliOptionLetters = ['क', 'ख', 'ग', 'घ', 'ङ', 'च', 'छ', 'ज', 'झ', 'ञ']
const nepaliDigits = '०१२३४५६७८९'

// Headings as institutes write them (API.md "Typists' habits"), compared after `words` below.
const QUESTION = new Set(['question', 'questions', 'question text', 'q', 'प्रश्न', 'प्रश्नहरू', 'प्रश्नहरु'])
const ANSWER = new Set([
  'answer',
  'answers',
  'ans',
  'correct',
  'correct answer',
  'correct option',
  'right answer',
  'key',
  'answer key',
  'उत्तर',
  'सही उत्तर',
  'सहि उत्तर',
  'ठीक उत्तर',
  'ठिक उत्तर',
  'सही विकल्प',
])
const NAMED: Record<string, Column | 'hint'> = {
  topic: 'topic',
  subject: 'topic',
  chapter: 'topic',
  unit: 'topic',
  category: 'topic',
  विषय: 'topic',
  शीर्षक: 'topic',
  अध्याय: 'topic',
  एकाइ: 'topic',
  hint: 'hint',
  explanation: 'hint',
  solution: 'hint',
  व्याख्या: 'hint',
  संकेत: 'hint',
  सङ्केत: 'hint',
  स्पष्टीकरण: 'hint',
  tags: 'tags',
  tag: 'tags',
  keywords: 'tags',
  ट्याग: 'tags',
  difficulty: 'difficulty',
  level: 'difficulty',
  'difficulty level': 'difficulty',
  कठिनाइ: 'difficulty',
  स्तर: 'difficulty',
  source: 'source',
  reference: 'source',
  स्रोत: 'source',
  passage: 'passage',
  अनुच्छेद: 'passage',
}
// Serial numbers (क्र.सं., S.N., #) are the sheet's own row numbers, not part of a question: ignored.
const SERIAL = new Set([
  'sn',
  'sno',
  'srno',
  'sr',
  'serial',
  'serialno',
  'no',
  '#',
  'qno',
  'क्रसं',
  'क्रस',
  'सिनं',
  'क्रमसंख्या',
  'क्रम',
  'क्रमाङ्क',
  'क्रमांक',
])

const words = (heading: string) =>
  heading
    .normalize('NFC')
    .replace(/[\u200c\u200d]/g, '')
    .toLowerCase()
    .replace(/[_\-()[\]]/g, ' ')
    .replace(/[:：.।]+\s*$/u, '')
    .replace(/\s+/g, ' ')
    .trim()

function splitLanguage(heading: string): { base: string; language: 'en' | 'ne' | null } {
  const english = /(^|\s)(english|eng|en|in english)(\s|$)|अंग्रेजी|अङ्ग्रेजी|अँग्रेजी/u
  const nepali = /(^|\s)(nepali|nep|ne|in nepali)(\s|$)|नेपाली/u
  const language = english.test(heading) ? 'en' : nepali.test(heading) ? 'ne' : null
  if (!language) return { base: heading, language }
  const base = heading
    .replace(language === 'en' ? english : nepali, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return { base, language }
}

function optionIndex(base: string): number {
  const match = /^(?:option|opt|choice|विकल्प)?\s*([a-j]|[कखगघङचछजझञ]|10|[1-9]|१०|[१-९])$/u.exec(base)
  if (!match) return -1
  const mark = match[1]!
  if (/^[a-j]$/.test(mark)) return mark.charCodeAt(0) - 97
  if (nepaliOptionLetters.includes(mark)) return nepaliOptionLetters.indexOf(mark)
  // A bare number is a serial or a score, not an option: only `Option 1` / `विकल्प १` name one.
  if (!/^(option|opt|choice|विकल्प)/u.test(base)) return -1
  const number = Number(
    [...mark].map((digit) => (nepaliDigits.includes(digit) ? nepaliDigits.indexOf(digit) : digit)).join(''),
  )
  return number >= 1 && number <= 10 ? number - 1 : -1
}

export function headingColumn(heading: string): SheetColumn | 'ignore' | null {
  const name = columnName(heading)
  if (known.has(name)) return name as Column
  const text = words(heading)
  if (text === '') return null
  if (SERIAL.has(text.replace(/[\s.]/g, ''))) return 'ignore'
  if (ANSWER.has(text)) return 'correct'
  const { base, language } = splitLanguage(text)
  const pair = (field: 'question' | 'hint' | 'passage' | `option_${string}`): SheetColumn =>
    (language ? `${field}_${language}` : field) as SheetColumn
  if (QUESTION.has(base)) return pair('question')
  const option = optionIndex(base)
  if (option >= 0) return pair(`option_${importOptionLetters[option]!}`)
  const named = NAMED[base]
  if (named === 'hint' || named === 'passage') return pair(named)
  if (named && !language) return named
  return null
}

export class ColumnsRefused extends Error {}

export class NoHeader extends Unreadable {
  constructor(readonly headings: string[]) {
    super(
      headings.length > 0
        ? `No header row was found: the first row's headings (${headings.join(', ')}) lack a question, an option or an answer column. Rename them as in the template, or map them to template columns.`
        : noHeader,
    )
  }
}

export function headerColumns(
  headers: readonly string[],
  mapping: Readonly<Record<string, Column>> = {},
): Map<SheetColumn, number> | null {
  const columns = new Map<SheetColumn, number>()
  const mapped = new Map(Object.entries(mapping).map(([heading, column]) => [words(heading), column]))
  headers.forEach((header, index) => {
    const column = mapped.get(words(header)) ?? headingColumn(header)
    if (column && column !== 'ignore' && !columns.has(column)) columns.set(column, index)
  })
  const names = [...columns.keys()]
  const hasQuestion = names.some((name) => /^question/.test(name))
  const hasOption = names.some((name) => /^option_/.test(name))
  // Without an answer column no row could come in (a `type` column may mean written questions alone, which need none).
  return hasQuestion && ((hasOption && columns.has('correct')) || columns.has('type')) ? columns : null
}

export function checkMapping(headers: readonly string[], mapping: Readonly<Record<string, Column>>) {
  const found = new Set(headers.map(words))
  const missing = Object.keys(mapping).filter((heading) => !found.has(words(heading)))
  if (missing.length > 0)
    throw new ColumnsRefused(
      `${missing.map((heading) => `"${heading}"`).join(', ')} ${missing.length === 1 ? 'is not a heading' : 'are not headings'} of this file; its headings are: ${headers.filter((header) => header.trim() !== '').join(', ')}.`,
    )
}

export function sheetDraft(
  row: number,
  cell: (column: SheetColumn) => Run[],
  columns?: ReadonlySet<SheetColumn>,
): Draft | null {
  const value = (column: SheetColumn) => cell(column)
  const all: SheetColumn[] = [
    ...importColumns,
    'question',
    'hint',
    ...importOptionLetters.map((letter) => `option_${letter}` as const),
  ]
  const texts = all.map((column) =>
    value(column)
      .map((run) => run.text)
      .join(''),
  )
  if (texts.every((text) => text.trim() === '')) return null
  // A heading without a language gives a text whose script decides, unless that field's language columns exist.
  const pair = (en: Column, ne: Column, mixed: MixedColumn): DraftText =>
    columns && columns.has(mixed) && !columns.has(en) && !columns.has(ne)
      ? { mixed: value(mixed) }
      : { en: value(en), ne: value(ne) }
  const filled = (text: DraftText) =>
    ('mixed' in text ? text.mixed : text.en.concat(text.ne)).some((run) => run.text.trim() !== '')
  const draft = emptyDraft(row, pair('question_en', 'question_ne', 'question'))
  for (const letter of importOptionLetters) {
    const option = pair(`option_${letter}_en` as Column, `option_${letter}_ne` as Column, `option_${letter}`)
    if (filled(option)) {
      while (draft.options.length < importOptionLetters.indexOf(letter)) draft.options.push({ en: [], ne: [] })
      draft.options.push(option)
    }
  }
  const answer = value('correct')
    .map((run) => run.text)
    .join('')
    .trim()
  draft.answer = answer ? { letter: answer } : null
  const hint = pair('hint_en', 'hint_ne', 'hint')
  draft.hint = filled(hint) ? hint : null
  const orNull = (runs: Run[]) => (runs.some((run) => run.text.trim() !== '') ? runs : null)
  draft.topic = orNull(value('topic'))
  draft.tags = orNull(value('tags'))
  draft.source = orNull(value('source'))
  draft.difficulty =
    value('difficulty')
      .map((run) => run.text)
      .join('')
      .trim() || null
  const cellText = (column: Column) =>
    value(column)
      .map((run) => run.text)
      .join('')
      .trim()
  // The passage in its two columns (the export's), or in one cell of either language.
  const passageColumns: DraftText = { en: value('passage_en'), ne: value('passage_ne') }
  const passage = filled(passageColumns) ? passageColumns : { mixed: value('passage') }
  draft.passage = filled(passage) ? passage : null
  const numeric = {
    value: cellText('answer_value'),
    tolerance: cellText('answer_tolerance'),
    min: cellText('answer_min'),
    max: cellText('answer_max'),
    decimals: cellText('decimals'),
  }
  const type = cellText('type').normalize('NFC').toLowerCase()
  // Without a type, a row with an answer value or range and no options is numeric: nothing else could it be.
  const keyed = numeric.value !== '' || numeric.min !== '' || numeric.max !== ''
  if (NUMERIC.has(type) || (type === '' && keyed && draft.options.length === 0)) draft.numeric = numeric
  else if (MULTIPLE.has(type)) draft.multiple = true
  else if (type !== '') {
    const modelAnswer: DraftText = { en: value('model_answer_en'), ne: value('model_answer_ne') }
    draft.written = {
      type: cellText('type'),
      marks: cellText('marks'),
      wordLimit: cellText('word_limit'),
      modelAnswer: filled(modelAnswer) ? modelAnswer : null,
    }
  }
  return draft
}

const MULTIPLE = new Set(['multiple', 'msq', 'multiple answer', 'multiple correct', 'बहुउत्तर'])
const NUMERIC = new Set(['numeric', 'numerical', 'number', 'integer', 'nat', 'सङ्ख्यात्मक', 'संख्यात्मक'])

export const noHeader =
  'No header row was found: the first sheet needs a row naming its columns (question_en or question_ne, option_a_en, …, correct), as in the template.'
