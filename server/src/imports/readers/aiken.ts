import { importLimits } from '@quiz/contracts'
import { emptyDraft, plain, Unreadable, type Draft } from './draft'
import { tooMany } from './xlsx'

// Moodle's Aiken format: the question on one line (Moodle allows it to run over several before the first option),
// options `A.` or `A)` each on a line, then `ANSWER: X`; questions apart by blank lines.

const OPTION = /^([A-Z])[.)]\s+(.*)$/
const ANSWER = /^ANSWER:\s*(.*)$/i

export function readAiken(text: string): Draft[] {
  const drafts: Draft[] = []
  let current: Draft | null = null
  let questionLines: string[] = []
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)
  lines.forEach((raw, index) => {
    const line = raw.trim()
    if (line === '') {
      if (current && current.answer === null && current.options.length === 0) return
      current = null
      return
    }
    if (!current) {
      current = emptyDraft(index + 1, { mixed: plain(line) })
      questionLines = [line]
      drafts.push(current)
      if (drafts.length > importLimits.questions) throw new Unreadable(tooMany)
      return
    }
    const answer = ANSWER.exec(line)
    if (answer) {
      current.answer = { letter: answer[1]!.trim() }
      current = null
      return
    }
    const option = OPTION.exec(line)
    if (option) {
      current.options.push({ mixed: plain(option[2]!.trim()) })
      return
    }
    if (current.options.length === 0) {
      questionLines.push(line)
      current.text = { mixed: plain(questionLines.join('\n')) }
    } else {
      const last = current.options.length - 1
      const previous = (current.options[last] as { mixed: { text: string }[] }).mixed.map((run) => run.text).join('')
      current.options[last] = { mixed: plain(`${previous}\n${line}`) }
    }
  })
  return drafts
}
