import type { QuizQuestion } from '@quiz/contracts'
import { SerializedOnce } from '../http/serializer'
import type { PaperQuestion } from '../questions/question-papers'

/** Each question's body at its place in a paper, written once for every learner (docs/decisions/086). */
export function createQuestionBodies({ maxChars = 8 * 1024 * 1024 } = {}) {
  const entries = new Map<PaperQuestion, { bodies: SerializedOnce<QuizQuestion>[]; chars: number }>()
  let chars = 0

  function count(question: PaperQuestion, entry: { chars: number }, written: number) {
    if (entries.get(question) !== entry) return // let go of while its body was on the way
    entry.chars += written
    chars += written
    for (const [oldestQuestion, oldest] of entries) {
      if (chars <= maxChars || oldest === entry) break
      entries.delete(oldestQuestion)
      chars -= oldest.chars
    }
  }

  return function bodyOf(question: PaperQuestion, number: number): SerializedOnce<QuizQuestion> {
    const entry = entries.get(question) ?? { bodies: [], chars: 0 }
    entries.delete(question)
    entries.set(question, entry)
    return (entry.bodies[number] ??= new SerializedOnce({ ...question.learner, number }, (written) =>
      count(question, entry, written),
    ))
  }
}
