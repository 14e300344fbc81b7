import { acceptsNumber, readNumber, type NumericKey } from '@quiz/contracts/rules/numbers'
import type { AnswerKey } from './answer-keys'

// Marking as data (API.md "Question types"): one pure function per question type, from the answer, the question's
// key and its section's marks to the marks gained. All marks are hundredths, so sums stay exact integers.

export type MultipleScheme = 'all_or_nothing' | 'partial'

/** What a section says about marking, in hundredths. */
export interface SectionMarks {
  correct: number
  wrong: number
  /** Multiple questions' scheme; `partial` is the hundredths for each right option chosen short of the whole set. */
  multiple?: { scheme: MultipleScheme; partial: number }
  /** False: a wrong numeric answer loses nothing (GATE). Absent: true. */
  numericNegative?: boolean
}

export type TypedOutcome = 'correct' | 'partial' | 'incorrect' | 'unanswered' | 'excluded'

export interface Marked {
  outcome: TypedOutcome
  /** Signed hundredths gained. */
  marks: number
}

// `0 - wrong`, not `-wrong`: a section losing nothing gives 0, never -0.
const UNANSWERED: Marked = { outcome: 'unanswered', marks: 0 }
const EXCLUDED: Marked = { outcome: 'excluded', marks: 0 }

/** A key decision's drop, shared by every type: null when the key does not drop the question. */
function dropped(key: AnswerKey | undefined, answered: boolean, marks: SectionMarks): Marked | null {
  if (key?.drop === 'exclude') return EXCLUDED
  if (key?.drop === 'full_marks_all' || (key?.drop === 'full_marks_answered' && answered))
    return { outcome: 'correct', marks: marks.correct }
  if (key?.drop === 'full_marks_answered') return UNANSWERED
  return null
}

/** A choice question: one option id, right or wrong (SPEC.md's marking with the section's marks). */
export function markChoice(
  selected: number | null,
  correctOptionId: number | null,
  marks: SectionMarks,
  key?: AnswerKey,
): Marked {
  const drop = dropped(key, selected !== null, marks)
  if (drop) return drop
  if (selected === null) return UNANSWERED
  const right = key ? key.correct.has(selected) : selected === correctOptionId
  return right ? { outcome: 'correct', marks: marks.correct } : { outcome: 'incorrect', marks: 0 - marks.wrong }
}

/**
 * A multiple question: a set of option ids. `all_or_nothing` gives full marks for exactly the right set and loses
 * `wrong` for any other; `partial` loses `wrong` as soon as a wrong option is chosen and otherwise gives `partial` for
 * each right option chosen (JEE Advanced's +4/+3/+2/+1/0/-2 with 4, 2 and 1), at most full marks.
 */
export function markMultiple(
  selected: readonly number[] | null,
  correctOptionIds: ReadonlySet<number>,
  marks: SectionMarks,
  key?: AnswerKey,
): Marked {
  const chosen = new Set(selected ?? [])
  const drop = dropped(key, chosen.size > 0, marks)
  if (drop) return drop
  if (chosen.size === 0) return UNANSWERED
  const right = key ? key.correct : correctOptionIds
  let rightChosen = 0
  for (const id of chosen) {
    if (!right.has(id)) return { outcome: 'incorrect', marks: 0 - marks.wrong }
    rightChosen++
  }
  if (rightChosen === right.size) return { outcome: 'correct', marks: marks.correct }
  const scheme = marks.multiple ?? { scheme: 'all_or_nothing', partial: 100 }
  if (scheme.scheme === 'all_or_nothing') return { outcome: 'incorrect', marks: 0 - marks.wrong }
  // Capped at full marks (a section may give 2 a right option on a 3-mark question); full marks count as right.
  const partial = Math.min(rightChosen * scheme.partial, marks.correct)
  if (partial === marks.correct) return { outcome: 'correct', marks: partial }
  return partial > 0 ? { outcome: 'partial', marks: partial } : { outcome: 'incorrect', marks: 0 }
}

export interface NumericQuestionKey {
  answer: NumericKey
  decimals: number | null
}

/**
 * A numeric question: the typed string, read by the one number rule (contracts/rules/numbers). A string the rule
 * refuses never gets stored (400 `invalid_number`); one stored before the question changed its `decimals` is read
 * without that limit, as the learner's number.
 */
export function markNumeric(
  typed: string | null,
  question: NumericQuestionKey,
  marks: SectionMarks,
  key?: AnswerKey & { answer?: NumericKey },
): Marked {
  const read = typed === null || typed.trim() === '' ? null : readNumber(typed)
  const drop = dropped(key, read !== null, marks)
  if (drop) return drop
  if (read === null) return UNANSWERED
  const wrong: Marked = { outcome: 'incorrect', marks: marks.numericNegative === false ? 0 : 0 - marks.wrong }
  if (!read.ok) return wrong
  return acceptsNumber(key?.answer ?? question.answer, read.text) ? { outcome: 'correct', marks: marks.correct } : wrong
}
