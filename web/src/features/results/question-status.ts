import { acceptsNumber, readNumber } from '@quiz/contracts/rules/numbers'
import type { ReportAnswer, ReportCard, ReportQuestion } from './results.api'

export type QuestionStatus = 'correct' | 'partial' | 'incorrect' | 'unanswered' | 'answered'

/** What the learner gave to one question, whatever its type (API.md "Question types"). */
export interface GivenAnswer {
  /** A choice question's option, or null. */
  selected: number | null
  /** A multiple question's ticked options (empty when unanswered or for other types). */
  ticked: number[]
  /** A numeric question's typed number in its shortest form, or null. */
  value: string | null
  /** Marks gained, signed; null for a written question, while the key is withheld, or from an older server. */
  marks: number | null
}

export const givenAnswer = (answer: ReportAnswer | undefined): GivenAnswer => ({
  selected: answer?.selected_option ?? null,
  ticked: answer?.selected_option_ids ?? [],
  value: answer?.value ?? null,
  marks: answer?.marks ?? null,
})

const isAnswered = (question: ReportQuestion, given: GivenAnswer) =>
  question.type === 'multiple'
    ? given.ticked.length > 0
    : question.type === 'numeric'
      ? given.value !== null
      : given.selected !== null

/**
 * SPEC.md: correct if the chosen option is the correct one, incorrect if another was chosen, unanswered if none;
 * only answered while a live mock's key is withheld (the card marks no option right then). A multiple answer is
 * correct for exactly the right set and partial when it gained marks short of that (API.md: counted as incorrect
 * too, but shown as such); a numeric one is correct within the accepted value or range.
 */
export function questionStatus(question: ReportQuestion, given: GivenAnswer, keyWithheld = false): QuestionStatus {
  if (!isAnswered(question, given)) return 'unanswered'
  if (keyWithheld) return 'answered'
  if (question.type === 'multiple') {
    const right = question.options.filter((option) => option.is_correct).map((option) => option.id)
    const exact = right.length === given.ticked.length && right.every((id) => given.ticked.includes(id))
    if (exact) return 'correct'
    return given.marks !== null && given.marks > 0 ? 'partial' : 'incorrect'
  }
  if (question.type === 'numeric') {
    const read = readNumber(given.value ?? '')
    if (question.answer && read.ok) return acceptsNumber(question.answer, read.text) ? 'correct' : 'incorrect'
    // No key on the card (an older server): its marks still tell.
    return given.marks !== null && given.marks > 0 ? 'correct' : 'incorrect'
  }
  return question.options.some((option) => option.id === given.selected && option.is_correct) ? 'correct' : 'incorrect'
}

/** question id -> what the learner gave to it. */
export function givenAnswers(report: Pick<ReportCard, 'answers'>): Map<number, GivenAnswer> {
  return new Map(report.answers.map((answer) => [answer.question, givenAnswer(answer)]))
}

const hundredths = (value: number) => Math.round(value * 100)

/**
 * A question's full marks, for "Partly right: +2 of 4". The card has no per-question maximum, but marking is data
 * of the section, so each section's maximum over its counted questions is its `marks_correct`; when every section
 * agrees (or the paper has none) that is every question's full marks. Null when sections differ or say nothing.
 */
export function fullMarksOf(
  card: Pick<ReportCard, 'correct' | 'incorrect' | 'unanswered'> & {
    max_score?: number
    sections?: ReportCard['sections']
  },
): number | null {
  const parts =
    card.sections && card.sections.length > 0
      ? card.sections.map((section) => ({
          max: section.max_score,
          count: section.correct + section.incorrect + section.unanswered,
        }))
      : card.max_score === undefined
        ? []
        : [{ max: card.max_score, count: card.correct + card.incorrect + card.unanswered }]
  const each = new Set(parts.filter((part) => part.count > 0).map((part) => hundredths(part.max / part.count)))
  return each.size === 1 ? [...each][0]! / 100 : null
}
