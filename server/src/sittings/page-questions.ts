import type { PageFlag } from '@quiz/contracts'
import type { BookletPageReading } from './reader/read-booklet-page'

/**
 * The questions a page answers, from its bubbles, checked against the numbers the learner's set prints (every set's
 * while the learner is unknown): any doubtful bubble, or a filled one that is not a written question of that set, is
 * `question_unclear`; none filled is `no_question`. A flagged page names no question: a person says which
 * (docs/decisions/075: a page never joins the wrong question).
 */
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
