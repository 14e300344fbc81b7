import type { ReportCard, ReportQuestion } from './results.api'

export type QuestionStatus = 'correct' | 'incorrect' | 'unanswered' | 'answered'

/**
 * SPEC.md: correct if the chosen option is the correct one, incorrect if another was chosen, unanswered if none;
 * only answered while a live mock's key is withheld (the card marks no option right then).
 */
export function questionStatus(
  question: ReportQuestion,
  selectedOptionId: number | null | undefined,
  keyWithheld = false,
): QuestionStatus {
  if (selectedOptionId == null) return 'unanswered'
  if (keyWithheld) return 'answered'
  return question.options.some((option) => option.id === selectedOptionId && option.is_correct)
    ? 'correct'
    : 'incorrect'
}

/** question id -> the option the learner chose (null when unanswered). */
export function selectedOptions(report: Pick<ReportCard, 'answers'>): Map<number, number | null> {
  return new Map(report.answers.map((answer) => [answer.question, answer.selected_option]))
}
