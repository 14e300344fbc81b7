import type { ImportMessage } from '@quiz/contracts'
import { importLimits } from '@quiz/contracts'
import { emptyDraft, runsText, Unreadable, type Draft, type DraftPicture, type Run } from './draft'
import { appendLine, sliceRuns, trimRuns } from './runs'
import { tooMany } from './xlsx'

// The Word layout of API.md "Import", for docx paragraphs and pasted text; options printed on one line are split.

export interface Line {
  no: number
  runs: Run[]
  notes: ImportMessage[]
  pictures?: DraftPicture[]
}

export const nepaliLetters = ['क', 'ख', 'ग', 'घ', 'ङ', 'च', 'छ', 'ज', 'झ', 'ञ'] as const
// Letters past the tenth option: read so that an 11th option is counted (and refused), never folded into the 10th.
const laterNepaliLetters = ['ट', 'ठ', 'ड', 'ढ', 'ण'] as const
const LETTER = '[A-Za-z]|[कखगघङचछजझञटठडढण]'

const QUESTION = /^\s*(?:(?:Q(?:uestion)?|प्रश्न)\s*(?:no\.?|न\.?)?\s*\.?\s*)?([0-9]{1,5}|[०-९]{1,5})\s*[.)।:]\s*/iu
const OPTION = new RegExp(`^\\s*(?:\\(\\s*(${LETTER})\\s*\\)|(${LETTER})\\s*[.)])\\s*`, 'u')
// Typists' answer lines: `उत्तरः (क)`, `उत्तर:- क`, `सही उत्तरः क`, `Ans:-`, `Answer -`, `Ans.: b`.
const ANSWER_WORD = String.raw`(?:सही\s*उत्तर|ठिक\s*उत्तर|ठीक\s*उत्तर|उत्तर|correct\s+answer|right\s+answer|answer|ans)`
const ANSWER = new RegExp(String.raw`^\s*${ANSWER_WORD}(?:\s*(?:[:：=–—-]|ः|\.(?!\d)))+\s*(.*)$`, 'iu')
/** A line that starts with an answer word but no separator: `उत्तर (क)`, `Answer B`, or a sentence (`Answer all`). */
const ANSWER_START = new RegExp(String.raw`^\s*${ANSWER_WORD}(?=[\s(]|$)\s*(.*)$`, 'iu')
const LETTER_ONLY = new RegExp(
  String.raw`^(?:\(\s*(?:${LETTER}|[0-9]{1,2}|[०-९]{1,2})\s*\)|(?:${LETTER}|[0-9]{1,2}|[०-९]{1,2}))[.)]?$`,
  'u',
)
const TOPIC = /^\s*(?:topic|विषय)\s*[:：]\s*/iu
const HINT = /^\s*(?:hint|explanation|व्याख्या)\s*[:：]\s*/iu
const MARKS = /^\s*(?:marks|full\s+marks|अङ्क|अंक|पूर्णाङ्क|पूर्णांक)\s*[:：]\s*(.*)$/iu
// A reading passage: "Passage:" up to the next question, for the questions until "End of passage".
const PASSAGE = /^\s*(?:passage|अनुच्छेद)\s*(?:[:：]|ः)\s*/iu
const END_PASSAGE = /^\s*(?:end\s+of\s+(?:the\s+)?passage|अनुच्छेद\s*समाप्त)\s*[.।]?\s*$/iu
const toLatinDigits = (text: string) => text.replace(/[०-९]/gu, (digit) => String(digit.charCodeAt(0) - 0x966))

export function letterIndex(letter: string): number {
  const latin = letter.toLowerCase().charCodeAt(0) - 97
  if (/^[a-z]$/i.test(letter)) return latin
  const nepali = [...nepaliLetters, ...laterNepaliLetters] as readonly string[]
  return nepali.indexOf(letter)
}

function inlineOptionStarts(text: string, firstIndex: number, parenthesised: boolean): number[] {
  const starts: number[] = []
  let index = firstIndex + 1
  let from = 0
  for (;;) {
    const latin = String.fromCharCode(97 + index)
    const nepali = [...nepaliLetters, ...laterNepaliLetters][index] ?? '\u0000'
    const letters = [latin, latin.toUpperCase(), nepali].join('')
    const marker = parenthesised ? `\\(\\s*[${letters}]\\s*\\)` : `[${letters}]\\s*[.)]`
    const match = new RegExp(`\\s${marker}\\s`, 'u').exec(text.slice(from))
    if (!match || index >= 26) return starts
    starts.push(from + match.index + 1)
    from = from + match.index + match[0].length
    index++
  }
}

// A real question, a long passage included, takes tens of lines; a file past this has lost its numbering.
export const MAX_LINES_PER_QUESTION = 1_000
export const tooManyLines = (row: number) =>
  `The question at line ${row} runs over more than ${MAX_LINES_PER_QUESTION.toLocaleString('en')} lines: a question number is probably missing. Number each question and import again.`

const note = (field: string, code: ImportMessage['code'], message: string): ImportMessage => ({ field, code, message })

export function readLayout(lines: readonly Line[]): Draft[] {
  const drafts: Draft[] = []
  let current: Draft | null = null
  let part: 'text' | 'option' | 'hint' | 'after' = 'text'
  let linesOfCurrent = 0
  const marksOf = new Map<Draft, string>()
  const runsOf = (text: { mixed: Run[] } | object) => (text as { mixed: Run[] }).mixed
  let passage: { mixed: Run[] } | null = null
  let passageNotes: ImportMessage[] = []
  let passagePictures: DraftPicture[] = []
  let inPassage = false
  // A picture in the passage is the passage's (one at most: a second is refused at its questions' `passage.image`).
  const passageLine = (line: Line) => {
    passageNotes.push(...line.notes)
    passagePictures.push(...(line.pictures ?? []))
  }

  const addOption = (runs: Run[]) => {
    current!.options.push({ mixed: trimRuns(runs) })
  }
  const placePictures = (line: Line, where: 'text' | 'option' | 'hint' | 'after' | 'options') => {
    const pictures = line.pictures ?? []
    if (pictures.length === 0 || !current) return
    if (where === 'text') current.images.push(...pictures)
    else if (where === 'option' && current.options.length > 0)
      (current.optionImages[current.options.length - 1] ??= []).push(...pictures)
    else
      current.notes.push(
        note(
          'row',
          'image',
          where === 'options'
            ? `${pictures.map((picture) => picture.name).join(', ')} is in a line of several options: put each option, with its picture, on its own line.`
            : `${pictures.map((picture) => picture.name).join(', ')} is not in the question or an option (a hint, an answer or a topic line holds no picture); put it in the question's or an option's paragraph.`,
        ),
      )
  }

  for (const line of lines) {
    const text = runsText(line.runs)
    const passageStart = PASSAGE.exec(text)
    if (passageStart) {
      passage = { mixed: trimRuns(sliceRuns(line.runs, passageStart[0].length)) }
      passageNotes = []
      passagePictures = []
      passageLine(line)
      inPassage = true
      current = null
      continue
    }
    if (END_PASSAGE.test(text)) {
      passage = null
      passageNotes = []
      passagePictures = []
      inPassage = false
      part = 'after'
      continue
    }
    const question = QUESTION.exec(text)
    if (!question && inPassage) {
      if (text.trim() !== '') appendLine(passage!.mixed, trimRuns(line.runs))
      passageLine(line)
      continue
    }
    if (question) {
      inPassage = false
      current = emptyDraft(line.no, { mixed: trimRuns(sliceRuns(line.runs, question[0].length)) })
      current.passage = passage
      if (passage) {
        current.notes.push(...passageNotes)
        current.passageImages = passagePictures
      }
      current.notes.push(...line.notes)
      placePictures(line, 'text')
      if (/[०-९]/.test(question[1]!))
        current.notes.push(note('row', 'devanagari_numbering', 'The question number in Devanagari digits was read.'))
      drafts.push(current)
      if (drafts.length > importLimits.questions) throw new Unreadable(tooMany)
      part = 'text'
      linesOfCurrent = 0
      continue
    }
    if (!current) continue
    current.notes.push(...line.notes)
    if (text.trim() === '') {
      placePictures(line, part)
      continue
    }
    if (++linesOfCurrent > MAX_LINES_PER_QUESTION) throw new Unreadable(tooManyLines(current.row))
    let option = OPTION.exec(text)
    let answer = ANSWER.exec(text)
    // Past J an option letter counts only as the next one in turn (`K)` after `J)`): `T. S. Eliot` is text.
    if (option) {
      const index = letterIndex((option[1] ?? option[2])!)
      if (index >= 10 && index !== current.options.length) option = null
    }
    // An answer-word line never continues the option before it: the answer if a letter follows, else nobody's.
    const answerStart = !option && !answer && part === 'option' ? ANSWER_START.exec(text) : null
    if (answerStart) {
      if (!LETTER_ONLY.test(answerStart[1]!.trim())) {
        part = 'after'
        placePictures(line, 'after')
        continue
      }
      answer = answerStart
    }
    if (option && part !== 'after' && !answer) {
      const parenthesised = option[1] !== undefined
      const first = letterIndex((option[1] ?? option[2])!)
      const starts = [option[0].length, ...inlineOptionStarts(text, first, parenthesised)]
      for (const [n, start] of starts.entries()) {
        const end = starts[n + 1] ?? text.length
        const body = sliceRuns(line.runs, start, end)
        if (n === 0) {
          addOption(body)
          part = 'option'
          continue
        }
        const marker = OPTION.exec(runsText(body))
        addOption(marker ? sliceRuns(body, marker[0].length) : body)
      }
      part = 'option'
      placePictures(line, starts.length > 1 ? 'options' : 'option')
      continue
    }
    if (answer) {
      current.answer = { letter: answer[1]!.trim() }
      part = 'after'
      placePictures(line, 'after')
      continue
    }
    const marks = current.options.length === 0 ? MARKS.exec(text) : null
    if (marks) {
      marksOf.set(current, toLatinDigits(marks[1]!.trim()))
      placePictures(line, 'after')
      continue
    }
    const topic = TOPIC.exec(text)
    if (topic) {
      current.topic = trimRuns(sliceRuns(line.runs, topic[0].length))
      placePictures(line, 'after')
      continue
    }
    const hint = HINT.exec(text)
    if (hint) {
      current.hint = { mixed: trimRuns(sliceRuns(line.runs, hint[0].length)) }
      part = 'hint'
      placePictures(line, 'hint')
      continue
    }
    placePictures(line, part)
    const more = trimRuns(line.runs)
    if (part === 'text') appendLine(runsOf(current.text), more)
    else if (part === 'option') appendLine(runsOf(current.options.at(-1)!), more)
    else if (part === 'hint' && current.hint) appendLine(runsOf(current.hint), more)
  }
  for (const [draft, marks] of marksOf) {
    if (draft.options.length > 0) continue
    const answer = draft.answer && 'letter' in draft.answer ? draft.answer.letter : ''
    draft.written = {
      type: 'written',
      marks,
      wordLimit: '',
      modelAnswer: answer ? { mixed: [{ text: answer, font: null }] } : null,
    }
    draft.answer = null
  }
  return drafts
}

export function readText(text: string, prepare: (lines: Run[][]) => Run[][] = (lines) => lines): Draft[] {
  const runs = prepare(
    text
      .replace(/^\uFEFF/, '')
      .split(/\r\n|\r|\n/)
      .map((line) => (line ? [{ text: line, font: null }] : [])),
  )
  return readLayout(runs.map((line, index) => ({ no: index + 1, runs: line, notes: [] })))
}
