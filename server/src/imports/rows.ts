import {
  adminLimits,
  adminMessages,
  importDuplicateCodes,
  importFixCodes,
  importMessages,
  BankQuestionInputSchema,
  PassageInputSchema,
  questionTypeMessages,
  passageLimits,
  passageMessages,
  type Difficulty,
  type ImportConversion,
  type ImportFormat,
  type ImportImage,
  type ImportMessage,
  type ImportQuestion,
  type ImportRow,
  type LegacyFontChoice,
} from '@quiz/contracts'
import { nulMessage, pathOfNul } from '../lib/nul'
import { questionMathsErrors } from '../maths/question-maths'
import { isTableProblem } from '@quiz/contracts/rules/pipe-tables'
import { encodePicture, type EncodedPicture } from '../pictures/picture-encoding'
import { named } from '../pictures/picture-names'
import { pictureOf } from '../pictures/pictures.service'
import { contentHash } from '../questions/content-hash'
import { convertLegacy, legacyFontOfName } from './legacy-font'
import { applyLegacyFonts, decideQuestionFonts, hasDevanagari, unsupportedFonts, type TextRole } from './legacy'
import type { Draft, DraftPicture, DraftText, Run } from './readers/draft'
import { letterIndex } from './readers/layout'
import { readNumber } from '@quiz/contracts/rules/numbers'
import { clozeNote, isCloze, refusalMessage } from './readers/moodle-text'

export interface RowDefaults {
  topic?: string
  tags: string[]
  difficulty?: Difficulty
  source?: string
}

export interface RowContext {
  format: ImportFormat
  legacyFont: LegacyFontChoice
  defaults: RowDefaults
  pictures?: Map<string, EncodedPicture>
  pictureKey: string
}

export type HashedRow = ImportRow & { hash: string | null }

const FIXES = new Set<ImportMessage['code']>(importFixCodes)
const DUPLICATES = new Set<ImportMessage['code']>(importDuplicateCodes)
export const rejects = (message: ImportMessage) => !FIXES.has(message.code) && !DUPLICATES.has(message.code)

const FONT_NAMES = { preeti: 'Preeti', kantipur: 'Kantipur' } as const
const DIFFICULTIES: Record<string, Difficulty> = {
  easy: 'easy',
  medium: 'medium',
  hard: 'hard',
  सजिलो: 'easy',
  सरल: 'easy',
  मध्यम: 'medium',
  कठिन: 'hard',
  गाह्रो: 'hard',
}

const runsText = (runs: readonly Run[]) => runs.map((run) => run.text).join('')

export async function buildRow(draft: Draft, context: RowContext): Promise<HashedRow> {
  const messages: ImportMessage[] = [...draft.notes]
  const converted: ImportConversion[] = []
  const hasFonts = context.format === 'xlsx' || context.format === 'docx'
  let trimmed = false
  const languageRuns = (text: DraftText | null) => (!text ? null : 'mixed' in text ? text.mixed : text.ne)
  const decision =
    context.legacyFont === 'auto' ? decideQuestionFonts([draft.text, ...draft.options].map(languageRuns)) : undefined

  const textOf = (runs: readonly Run[] | null, role: TextRole, field: string): string => {
    if (!runs || runs.length === 0) return ''
    const after = applyLegacyFonts(runs, role, context.legacyFont, hasFonts, decision)
    for (const name of unsupportedFonts(after))
      messages.push({
        field,
        code: 'unsupported_font',
        message: `This text is in the ${name} font, which cannot be converted; retype it in Unicode (or Preeti) and import again.`,
      })
    const text = runsText(after)
    const clean = text.trim()
    if (clean !== text && role !== 'mixed') trimmed = true
    const fonts = [...new Set(after.flatMap((run) => (run.converted ? [run.converted.font] : [])))]
    if (fonts.length > 0) {
      converted.push({
        field,
        original: runsText(after.map((run) => ({ ...run, text: run.converted?.original ?? run.text }))).trim(),
        unicode: clean,
      })
      const byContent = !runs.some((run) => run.converted || (run.font && legacyFontOfName(run.font)))
      const doubts = [
        ...new Set([
          ...after.flatMap((run) =>
            run.converted ? convertLegacy(run.converted.original, run.converted.font).doubts : [],
          ),
          ...(byContent && decision ? decision.doubts : []),
        ]),
      ]
      messages.push({
        field,
        code: 'font_converted',
        message:
          `Converted from ${fonts.map((font) => FONT_NAMES[font]).join(' and ')} to Unicode; check the conversion.` +
          (doubts.length > 0 ? ` Unsure: ${doubts.join('; ')}.` : ''),
      })
    }
    return clean
  }

  const bilingual = (text: DraftText | null, field: string) => {
    if (!text) return { en: '', ne: '' }
    if ('mixed' in text) {
      const value = textOf(text.mixed, 'mixed', field)
      return hasDevanagari(value) ? { en: '', ne: value } : { en: value, ne: '' }
    }
    return { en: textOf(text.en, 'en', `${field}.en`), ne: textOf(text.ne, 'ne', `${field}.ne`) }
  }
  // Topics, categories, tags and sources are never read as Preeti on their content under `auto` (`sql-dql`).
  const metaRole: TextRole =
    context.format === 'xlsx' || context.format === 'csv' || context.legacyFont === 'auto' ? 'meta' : 'mixed'

  const text = bilingual(draft.text, 'text')
  const options: ImportQuestion['options'] = draft.options.map((option, index) => ({
    text: bilingual(option, `options.${index}.text`),
    is_correct: false,
    image: null,
  }))
  const hintText = bilingual(draft.hint, 'hint')
  const topic = textOf(draft.topic, metaRole, 'topic') || context.defaults.topic || ''
  const tagsText = textOf(draft.tags, metaRole, 'tags')
  const tags = tagsText
    ? tagsText
        .split(/[;,]/)
        .map((tag) => tag.trim())
        .filter(Boolean)
    : context.defaults.tags
  const source = textOf(draft.source, metaRole, 'source') || context.defaults.source || null
  let difficulty: Difficulty | null = context.defaults.difficulty ?? null
  if (draft.difficulty) {
    const read = DIFFICULTIES[draft.difficulty.trim().toLowerCase()]
    if (read) difficulty = read
    else
      messages.push({
        field: 'difficulty',
        code: 'invalid',
        message: `Difficulty "${draft.difficulty}" is not easy, medium or hard.`,
      })
  }
  if (trimmed) messages.push({ field: 'row', code: 'trimmed', message: 'Spaces at the ends of cells were removed.' })

  // An unknown type or a Cloze question is refused for that reason alone (API.md): its answers are not read.
  const parts = [draft.text, ...draft.options].flatMap((part) => ('mixed' in part ? [part.mixed] : [part.en, part.ne]))
  let typeNotes = draft.notes.filter((note) => note.code === 'unsupported_type')
  if (typeNotes.length === 0 && parts.some((runs) => isCloze(runsText(runs)))) typeNotes = [clozeNote()]
  const kind = writtenKind(draft, typeNotes)
  const unsupported = typeNotes.length > 0
  const numeric = !unsupported && !kind && draft.numeric ? numericKey(draft.numeric, messages) : undefined
  if (!unsupported && !kind && !draft.numeric) readAnswer(draft, options, messages)
  const image = unsupported ? null : await pictureFrom(draft.images, 'image', 'The question', messages, context)
  if (!unsupported)
    for (const [index, found] of draft.optionImages.entries())
      if (options[index] && found)
        options[index].image = await pictureFrom(found, `options.${index}.image`, 'This option', messages, context)

  const question: ImportQuestion = {
    text,
    hint: hintText.en || hintText.ne ? hintText : null,
    topic,
    image,
    options,
    tags,
    difficulty,
    source,
    ...(kind && {
      type: 'written' as const,
      marks: numberOrRaw(kind.marks) as number,
      word_limit: kind.wordLimit === '' ? null : (numberOrRaw(kind.wordLimit) as number),
      model_answer: kind.modelAnswer ? bilingual(kind.modelAnswer, 'model_answer') : null,
    }),
    ...(!kind && draft.multiple && { type: 'multiple' as const }),
    ...(!kind && numeric && { type: 'numeric' as const, answer: numeric.answer, decimals: numeric.decimals }),
  }
  const passageImage =
    draft.passage && !unsupported
      ? await pictureFrom(draft.passageImages ?? [], 'passage.image', 'The passage', messages, context)
      : null
  const passage = draft.passage
    ? { text: bilingual(draft.passage, 'passage'), ...(passageImage && { image: passageImage }) }
    : null
  if (!draft.passage && (draft.passageImages ?? []).length > 0)
    messages.push({
      field: 'passage.image',
      code: 'image',
      message: `${draft.passageImages!.map((picture) => picture.name).join(', ')} is for a passage, but this row has none: write the passage's text in its passage column.`,
    })
  if (!unsupported) {
    await check(question, messages)
    if (passage) await checkPassage(passage.text, messages)
  } else messages.splice(0, messages.length, ...typeNotes)

  const rejected = messages.some(rejects)
  return {
    row: draft.row,
    status: rejected ? 'rejected' : messages.some((message) => FIXES.has(message.code)) ? 'fixed' : 'ok',
    question,
    messages,
    converted,
    duplicate_of: null,
    passage,
    hash: rejected ? null : contentHash(question),
  }
}

/** The passage's text as `POST /api/admin/bank/passages/` would take it, refusals said at `passage`. */
async function checkPassage(text: { en: string; ne: string }, messages: ImportMessage[]) {
  if (!text.en && !text.ne) {
    messages.push({ field: 'passage', code: 'empty_text', message: 'The passage has no text.' })
    return
  }
  const result = PassageInputSchema.safeParse({ text: { en: text.en || text.ne, ne: text.ne }, image: null })
  for (const issue of result.error?.issues ?? [])
    messages.push({ field: ['passage', ...issue.path.slice(1)].join('.'), code: 'invalid', message: issue.message })
  const maths = await questionMathsErrors({ text })
  for (const [field, problems] of Object.entries(maths))
    for (const problem of problems)
      messages.push({
        field: field.replace(/^text/, 'passage'),
        code: isTableProblem(problem) ? 'table' : 'invalid_maths',
        message: problem,
      })
}

/** The key by which rows share a passage: its text in both languages, spaces and Unicode normalised. */
export const passageKey = (passage: { text: { en: string; ne: string } }) =>
  JSON.stringify([passage.text.en, passage.text.ne].map((text) => text.normalize('NFC').replace(/\s+/gu, ' ').trim()))

/**
 * A passage holds at most 50 questions (API.md "Question types"): the rows of one passage past the 50th importable
 * one are refused, naming the limit, rather than the commit failing on them.
 */
export function refuseOverfullPassages(rows: HashedRow[]) {
  const counts = new Map<string, number>()
  for (const row of rows) {
    if (!row.passage || row.status === 'rejected') continue
    const key = passageKey(row.passage)
    const count = (counts.get(key) ?? 0) + 1
    counts.set(key, count)
    if (count <= passageLimits.questions) continue
    row.status = 'rejected'
    row.hash = null
    row.messages.push({ field: 'passage', code: 'invalid', message: passageMessages.tooManyQuestions })
  }
}

const numberMessage = (raw: string) =>
  `"${raw}" is not a number: write digits with at most one decimal point, such as 3.14 or -2.`

/**
 * A numeric question's accepted answer from the cells as written: a value (tolerance 0 when absent) or a range.
 * A cell that is not a number is refused at its own field; the schema then checks decimals, signs and order.
 */
function numericKey(cells: NonNullable<Draft['numeric']>, messages: ImportMessage[]) {
  const read = (raw: string, field: string): number | undefined => {
    const trimmed = raw.trim()
    if (trimmed === '') return undefined
    const number = readNumber(trimmed)
    if (!number.ok) {
      messages.push({ field, code: 'invalid', message: numberMessage(trimmed) })
      return Number.NaN
    }
    return Number(number.text)
  }
  const value = read(cells.value, 'answer.value')
  const tolerance = read(cells.tolerance, 'answer.tolerance')
  const min = read(cells.min, 'answer.min')
  const max = read(cells.max, 'answer.max')
  let decimals: number | null = null
  const decimalsCell = cells.decimals.trim()
  if (decimalsCell !== '') {
    const number = readNumber(decimalsCell)
    decimals = number.ok ? Number(number.text) : Number.NaN
    if (!number.ok || !Number.isInteger(decimals) || decimals < 0 || decimals > 6) {
      messages.push({ field: 'decimals', code: 'invalid', message: questionTypeMessages.decimals })
      decimals = Number.NaN
    }
  }
  const ranged = min !== undefined || max !== undefined
  let answer: { value: number; tolerance: number } | { min: number; max: number } | null = null
  if (value !== undefined && ranged)
    messages.push({
      field: 'answer',
      code: 'invalid',
      message: 'Give the answer as a value (with its tolerance) or as a range (min and max), not both.',
    })
  else if (ranged) {
    if (min === undefined || max === undefined)
      messages.push({
        field: min === undefined ? 'answer.min' : 'answer.max',
        code: 'no_correct',
        message: 'A range needs both its min and its max.',
      })
    else answer = { min, max }
  } else if (value !== undefined) {
    if (tolerance === undefined || !Number.isNaN(tolerance)) answer = { value, tolerance: tolerance ?? 0 }
  } else
    messages.push({
      field: 'answer',
      code: 'no_correct',
      message: 'A numeric question needs its answer: a value (answer_value), or a range (answer_min and answer_max).',
    })
  // A number refused above is said once, at its field; the schema is not asked about NaN.
  if (answer && Object.values(answer).some(Number.isNaN)) answer = null
  return { answer, decimals: Number.isNaN(decimals) ? null : decimals }
}

const WRITTEN = new Set(['written', 'लिखित', 'essay', 'subjective'])
const CHOICE = new Set(['choice', 'mcq', 'multiple choice', 'single', 'वस्तुगत', 'बहुवैकल्पिक'])

function writtenKind(draft: Draft, typeNotes: ImportMessage[]) {
  const written = draft.written
  if (!written) return undefined
  const type = written.type.normalize('NFC').toLowerCase()
  if (WRITTEN.has(type)) return written
  if (!CHOICE.has(type))
    typeNotes.push({
      field: 'type',
      code: 'unsupported_type',
      message: `The question type "${written.type}" is not one the bank has: write choice, multiple, numeric or written.`,
    })
  return undefined
}

// A number as written; anything else is passed on for the schema to refuse at its field.
const numberOrRaw = (cell: string) => (/^\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell === '' ? undefined : cell)

/** Word's own alt text, written for it by a guess ("… Description automatically generated"), is no caption. */
const GENERATED_ALT = /description automatically generated|generated with (?:very )?(?:high|medium|low) confidence/i

async function pictureFrom(
  found: readonly DraftPicture[],
  field: string,
  holder: string,
  messages: ImportMessage[],
  context: RowContext,
): Promise<ImportImage> {
  if (found.length === 0) return null
  if (found.length > 1) {
    messages.push({
      field,
      code: 'image',
      message: `${holder} holds ${found.length} pictures (${found.map((picture) => picture.name.replace(/^The picture\s*/, '') || 'a picture').join(', ')}); it may hold one.`,
    })
    return null
  }
  const picture = found[0]!
  const read = await encodePicture(
    Buffer.from(picture.bytes.buffer, picture.bytes.byteOffset, picture.bytes.byteLength),
  )
  if (typeof read === 'string') {
    messages.push({ field, code: 'image', message: refusalMessage(picture.name, read) })
    return null
  }
  const encoded = named(context.pictureKey, read)
  context.pictures?.set(encoded.hash, encoded)
  const alt = GENERATED_ALT.test(picture.alt) ? '' : picture.alt.replace(/\s+/g, ' ').trim()
  // An alt text longer than a caption may be is left out rather than refusing the row for text no one saw.
  const caption = alt.length > adminLimits.captionLength ? '' : alt
  return {
    svg: null,
    picture: pictureOf(encoded),
    caption: picture.caption ?? (hasDevanagari(caption) ? { en: '', ne: caption } : { en: caption, ne: '' }),
  }
}

// By hand: `^\(\s*(.+?)\s*\)\.?$` rescans a run of spaces from each of its characters.
function inParentheses(raw: string): string | null {
  if (!raw.startsWith('(')) return null
  const end = raw.endsWith(').') ? raw.length - 2 : raw.endsWith(')') ? raw.length - 1 : -1
  if (end < 2) return null
  return raw.slice(1, end).trim() || ' '
}

export const isImportable = (row: ImportRow) => row.status === 'ok' || row.status === 'fixed'

// The importable numbers go in a Set first: searching the dry run for each named row is quadratic.
export function namedRowErrors(rows: readonly ImportRow[], named: readonly number[]): Record<string, string[]> {
  const importable = new Set(rows.filter(isImportable).map((row) => row.row))
  const errors: Record<string, string[]> = {}
  named.forEach((number, index) => {
    if (!importable.has(number)) errors[`rows.${index}`] = [importMessages.rowNotImportable]
  })
  return errors
}

function readAnswer(draft: Draft, options: ImportQuestion['options'], messages: ImportMessage[]) {
  const answer = draft.answer
  if (!answer) {
    messages.push({ field: 'correct', code: 'no_correct', message: 'No correct answer is given.' })
    return
  }
  if ('marks' in answer) {
    const right = answer.marks.filter(Boolean).length
    if (right === 0) messages.push({ field: 'correct', code: 'no_correct', message: 'No option is marked correct.' })
    else if (right > 1 && !draft.multiple)
      messages.push({
        field: 'correct',
        code: 'several_correct',
        message: `${right} options are marked correct; a question here has exactly one right answer.`,
      })
    else answer.marks.forEach((mark, index) => options[index] && (options[index].is_correct = mark))
    return
  }
  const raw = answer.letter.trim()
  if (draft.multiple) {
    readLetters(raw, options, messages)
    return
  }
  const parenthesised = inParentheses(raw)
  const letter = (parenthesised ?? raw).replace(/[.)]$/, '').trim()
  const several = letter.split(/\s*[,;/&]\s*|\s+and\s+|\s+र\s+|\s+/u).filter(Boolean)
  if (several.length > 1 && several.every((part) => letterIndex(part) >= 0 && [...part].length === 1)) {
    messages.push({
      field: 'correct',
      code: 'several_correct',
      message: `The answer names ${several.length} options (${raw}); a question here has exactly one right answer.`,
    })
    return
  }
  let index = [...letter].length === 1 ? letterIndex(letter) : -1
  let fixed = parenthesised !== null
  if (index < 0 && /^([1-9]|10|[१-९]|१०)$/u.test(letter)) {
    index = Number(letter.replace(/[०-९]/gu, (digit) => String(digit.charCodeAt(0) - 0x966))) - 1
    fixed = true
  }
  if (index < 0) {
    const normal = (value: string) => value.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase()
    const match = options.findIndex(
      (option) =>
        normal(option.text.en) === normal(letter) || (option.text.ne && normal(option.text.ne) === normal(letter)),
    )
    if (match >= 0) {
      index = match
      fixed = true
    }
  }
  if (index < 0 || index >= options.length || !(options[index]!.text.en || options[index]!.text.ne)) {
    messages.push({
      field: 'correct',
      code: 'unknown_correct',
      message:
        index >= options.length
          ? `The answer is option ${raw}, but the question has ${options.length} options.`
          : `The answer "${raw}" names no option; write its letter (A to J or क to ञ).`,
    })
    return
  }
  options[index]!.is_correct = true
  if (fixed)
    messages.push({
      field: 'correct',
      code: 'letter_read',
      message: `The answer "${raw}" was read as option ${String.fromCharCode(65 + index)}.`,
    })
}

/** A multiple question's right options: letters separated by `;` or `,` (`A;C`, `क, ग`), each naming an option. */
function readLetters(raw: string, options: ImportQuestion['options'], messages: ImportMessage[]) {
  const letters = raw
    .split(/[;,]/)
    .map((part) =>
      part
        .trim()
        .replace(/^\((.*)\)$/u, '$1')
        .trim(),
    )
    .filter(Boolean)
  const unknown = letters.filter((letter) => {
    const index = [...letter].length === 1 ? letterIndex(letter) : -1
    return index < 0 || index >= options.length || !(options[index]!.text.en || options[index]!.text.ne)
  })
  if (letters.length === 0 || unknown.length > 0) {
    messages.push({
      field: 'correct',
      code: 'unknown_correct',
      message:
        letters.length === 0
          ? 'No correct answer is given.'
          : `The answer "${raw}" names ${unknown.map((letter) => `"${letter}"`).join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not an option of this question: list the right options' letters separated by ; or , (such as A;C).`,
    })
    return
  }
  for (const letter of letters) options[letterIndex(letter)]!.is_correct = true
}

async function check(question: ImportQuestion, messages: ImportMessage[]) {
  if (!question.text.en && !question.text.ne)
    messages.push({ field: 'text', code: 'empty_text', message: 'The question has no text.' })
  question.options.forEach((option, index) => {
    if (!option.text.en && !option.text.ne)
      messages.push({ field: `options.${index}.text`, code: 'empty_text', message: 'This option has no text.' })
  })
  // Text in one language or the other will do (API.md "Import"): the schema, which asks for `en`, is given `ne`.
  const either = (value: { en: string; ne: string }) => ({ en: value.en || value.ne, ne: value.ne })
  const result = BankQuestionInputSchema.safeParse({
    ...question,
    text: either(question.text),
    hint: question.hint && either(question.hint),
    options: question.options.map((option) => ({ ...option, text: either(option.text) })),
  })
  const nul = pathOfNul(question)
  if (nul) messages.push({ field: nul.join('.'), code: 'invalid', message: nulMessage })
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path.join('.') || 'row'
    if (issue.message === adminMessages.blank) continue // said above, in the import's words
    if (issue.message === adminMessages.exactlyOneCorrect) continue // said by readAnswer
    if (issue.message === questionTypeMessages.atLeastOneCorrect) continue // said by readAnswer
    // A numeric key refused by numericKey is said there, at its own field.
    if (field.startsWith('answer') && messages.some((message) => message.field.startsWith('answer'))) continue
    if (issue.message === adminMessages.optionCount && question.options.length > adminLimits.maxOptions) {
      messages.push({
        field: 'options',
        code: 'option_count',
        message: `The question has ${question.options.length} options; a question may have at most ${adminLimits.maxOptions}.`,
      })
      continue
    }
    messages.push({
      field,
      code: field === 'options' && issue.message === adminMessages.optionCount ? 'option_count' : 'invalid',
      message: issue.message,
    })
  }
  const maths = await questionMathsErrors(question)
  const tableRefused = messages.some((message) => message.code === 'table')
  for (const [field, problems] of Object.entries(maths))
    for (const problem of problems) {
      const table = isTableProblem(problem)
      if (!(table && tableRefused)) messages.push({ field, code: table ? 'table' : 'invalid_maths', message: problem })
    }
}
