import type { PageFlag } from '@quiz/contracts'
import type { BookletPageReading } from './reader/read-booklet-page'

/** The questions a page answers from its bubbles, checked against the learner's set: decision 075 "In the code". */
export function questionsOf(
  reading: Pick<BookletPageReading, 'marked' | 'doubtful' | 'boxes'>,
  printed: ReadonlySet<number>,
): { questions: number[]; flags: PageFlag[] } {
  const flags: PageFlag[] = []
  const box = reading.boxes.questions
  const unknown = reading.marked.filter((number) => !printed.has(number))
  if (reading.doubtful.length > 0 || unknown.length > 0)
    flags.push({
      kind: 'question_unclear',
      marks: [...reading.marked, ...reading.doubtful].sort((a, b) => a - b).map(String),
      box,
    })
  else if (reading.marked.length === 0) flags.push({ kind: 'no_question', marks: [], box })
  return { questions: flags.length === 0 ? [...reading.marked].sort((a, b) => a - b) : [], flags }
}
