/** Marking scheme of SPEC.md in hundredths of a point, so sums stay exact integers. */
export const POINTS_CORRECT = 100
export const POINTS_INCORRECT = -20

export interface ScoredQuestion {
  questionId: number
  correctOptionId: number | null
}

export interface Score {
  score_hundredths: number
  correct: number
  incorrect: number
  unanswered: number
  total_questions: number
}

/** +1 per correct answer, -0.2 per wrong one, 0 per unanswered; answers to other questions are ignored. */
export function scoreAnswers(questions: readonly ScoredQuestion[], answers: ReadonlyMap<number, number | null>): Score {
  let correct = 0
  let incorrect = 0
  let unanswered = 0
  for (const question of questions) {
    const selected = answers.get(question.questionId) ?? null
    if (selected === null) unanswered++
    else if (selected === question.correctOptionId) correct++
    else incorrect++
  }
  return {
    score_hundredths: correct * POINTS_CORRECT + incorrect * POINTS_INCORRECT,
    correct,
    incorrect,
    unanswered,
    total_questions: questions.length,
  }
}

/**
 * Hundredths to the API's number. Dividing an integer by 100 yields the double nearest to the decimal, which
 * JSON prints in its shortest form: 260 -> 2.6, never 2.5999999999999996.
 */
export const toScore = (hundredths: number) => hundredths / 100
