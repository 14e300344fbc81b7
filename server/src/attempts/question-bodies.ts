import type { FetchedQuestion } from '@quiz/contracts'
import { SerializedOnce } from '../http/serializer'
import type { PaperQuestion } from '../questions/question-papers'

/**
 * Each question's body at its place in a paper, written once for every learner (docs/decisions/086), and once more
 * with its passage by id alone, for a device that holds the passage (decision 130).
 */
export function createQuestionBodies({ maxChars = 8 * 1024 * 1024 } = {}) {
  type Entry = { bodies: SerializedOnce<FetchedQuestion>[]; held?: SerializedOnce<FetchedQuestion>[]; chars: number }
  const entries = new Map<PaperQuestion, Entry>()
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

  return function bodyOf(
    question: PaperQuestion,
    number: number,
    passageHeld = false,
  ): SerializedOnce<FetchedQuestion> {
    const entry: Entry = entries.get(question) ?? { bodies: [], chars: 0 }
    entries.delete(question)
    entries.set(question, entry)
    const { passage } = question.learner
    const held = passageHeld && passage !== null
    const bodies = held ? (entry.held ??= []) : entry.bodies
    return (bodies[number] ??= new SerializedOnce(
      { ...question.learner, number, ...(held && { passage: { id: passage.id } }) },
      (written) => count(question, entry, written),
    ))
  }
}
