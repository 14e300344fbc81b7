import { importLimits, type ImportMessage } from '@quiz/contracts'
import { emptyDraft, Unreadable, type Draft } from './draft'
import { moodleText } from './moodle-text'
import { MAX_LINES_PER_QUESTION, tooManyLines } from './layout'
import { tooMany } from './xlsx'

// Moodle's Aiken format, read as Moodle reads it: blank lines between the options and `ANSWER:` are skipped.

const OPTION = /^([A-Z])[.)]\s*(\S.*)$/
const ANSWER = /^ANSWER\s*:\s*(.*)$/i

interface Pending {
  draft: Draft
  question: string[]
  options: string[]
  lines: number
  /** A blank line came after the options: a line that is neither an option nor ANSWER starts the next question. */
  gap: boolean
}

export function readAiken(text: string): Draft[] {
  const drafts: Draft[] = []
  let current: Pending | null = null

  const finish = () => {
    if (!current) return
    const notes: ImportMessage[] = []
    current.draft.text = moodleText(current.question.join('\n'), false, 'text', notes).text
    current.draft.options = current.options.map(
      (option, index) => moodleText(option, false, `options.${index}.text`, notes).text,
    )
    current.draft.notes.push(...notes)
    current = null
  }

  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)
  lines.forEach((raw, index) => {
    const line = raw.trim()
    if (line === '') {
      if (current && current.options.length > 0) current.gap = true
      return
    }
    if (current && ++current.lines > MAX_LINES_PER_QUESTION) throw new Unreadable(tooManyLines(current.draft.row))
    if (current) {
      // ANSWER ends a question even before any option (Moodle refuses it; here it is a row that says why).
      const answer = ANSWER.exec(line)
      if (answer) {
        current.draft.answer = { letter: answer[1]!.trim() }
        finish()
        return
      }
      const option = OPTION.exec(line)
      if (option && (current.options.length > 0 || current.question.length > 0)) {
        current.options.push(option[2]!.trim())
        current.gap = false
        return
      }
      if (current.options.length === 0) {
        current.question.push(line)
        return
      }
      if (!current.gap) {
        current.options[current.options.length - 1] += `\n${line}`
        return
      }
      finish()
    }
    const draft = emptyDraft(index + 1, { mixed: [] })
    current = { draft, question: [line], options: [], gap: false, lines: 1 }
    drafts.push(draft)
    if (drafts.length > importLimits.questions) throw new Unreadable(tooMany)
  })
  finish()
  return drafts
}
