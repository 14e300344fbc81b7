import type { QuizQuestion } from '@quiz/contracts'
import { SerializedOnce } from '../http/serializer'
import type { PaperQuestion } from '../questions/question-papers'

/**
 * Each question's body at its place in a paper, written once for every learner of the paper (docs/decisions/086),
 * the most recently fetched kept up to `maxChars` of JSON. A paper that many learners share stays; the bodies of one
 * learner's own paper (options shuffled for them, questions drawn for them) pass through, written about as often as
 * before, and hold no more memory than the budget.
 */
export function createQuestionBodies({ maxChars = 8 * 1024 * 1024 } = {}) {
  // Most recently fetched last; a question's bodies at every place it was fetched at, and their length so far.
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
    // Moved to the end: the most recently fetched.
    entries.delete(question)
    entries.set(question, entry)
    return (entry.bodies[number] ??= new SerializedOnce({ ...question.learner, number }, (written) =>
      count(question, entry, written),
    ))
  }
}
