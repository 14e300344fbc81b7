import type { NumericKey } from '@quiz/contracts/rules/numbers'
import type { AnswerKey } from './answer-keys'
import { attemptSections, type AttemptSection } from './sections'
import { markChoice, markMultiple, markNumeric, type Marked, type SectionMarks } from './type-marks'

/** Marking scheme of SPEC.md in hundredths of a point, so sums stay exact integers. */
export const POINTS_CORRECT = 100
export const POINTS_INCORRECT = -20

export interface ScoredQuestion {
  questionId: number
  correctOptionId: number | null
  key?: AnswerKey
  /** Absent for a choice question; `multiple` and `numeric` are marked here too, others by their own marker. */
  type?: string
  /** A multiple question's right options. */
  correctOptionIds?: ReadonlySet<number>
  /** A numeric question's accepted answer and decimals. */
  numeric?: { answer: NumericKey; decimals: number | null }
}

/** An answer as stored: a choice's option id, a multiple question's option ids, a numeric question's typed string. */
export type AnswerValue = number | readonly number[] | string | null

/** The question types marked from the answer alone, each by its pure function of questions/type-marks.ts. */
export const OBJECTIVE_TYPES = ['choice', 'multiple', 'numeric'] as const

export function markQuestion(question: ScoredQuestion, answer: AnswerValue | undefined, marks: SectionMarks): Marked {
  const value = answer ?? null
  switch (question.type ?? 'choice') {
    case 'multiple':
      return markMultiple(
        Array.isArray(value) ? value : null,
        question.correctOptionIds ?? new Set(),
        marks,
        question.key,
      )
    case 'numeric':
      if (!question.numeric) throw new Error(`numeric question ${question.questionId} without its answer`)
      return markNumeric(typeof value === 'string' ? value : null, question.numeric, marks, question.key)
    default:
      return markChoice(typeof value === 'number' ? value : null, question.correctOptionId, marks, question.key)
  }
}

const isObjective = (question: ScoredQuestion) =>
  question.type === undefined || (OBJECTIVE_TYPES as readonly string[]).includes(question.type)

/** A section's marking as the pure markers read it. */
export const sectionMarks = (section: AttemptSection): SectionMarks => ({
  correct: section.marks_correct,
  wrong: section.marks_wrong,
  multiple: { scheme: section.multiple_scheme ?? 'all_or_nothing', partial: section.partial_marks ?? 100 },
  numericNegative: section.numeric_negative ?? true,
})

export interface Score {
  score_hundredths: number
  correct: number
  incorrect: number
  unanswered: number
  total_questions: number
}

export interface SectionTally {
  score_hundredths: number
  max_hundredths: number
  correct: number
  incorrect: number
  unanswered: number
  /** Multiple answers gaining more than 0 and less than full marks; counted in `incorrect` too (API.md). */
  partial: number
}

export function scoreBySection(
  questions: readonly ScoredQuestion[],
  answers: ReadonlyMap<number, AnswerValue>,
  sections: readonly AttemptSection[] = attemptSections(null, questions.length),
): Score & { sections: SectionTally[] } {
  const tallies: SectionTally[] = sections.map((section) => ({
    score_hundredths: 0,
    max_hundredths: section.count * section.marks_correct,
    correct: 0,
    incorrect: 0,
    unanswered: 0,
    partial: 0,
  }))
  const marks = sections.map(sectionMarks)
  // Walked place by place, with no array of places: this runs twice on every submit of a storm.
  const last = sections.length - 1
  let index = 0
  let sectionEnd = sections[0]?.count ?? 0
  let excluded = 0
  for (let place = 0; place < questions.length; place++) {
    while (place >= sectionEnd && index < last) sectionEnd += sections[++index]!.count
    const question = questions[place]!
    const tally = tallies[index]!
    if (!isObjective(question)) {
      tally.max_hundredths -= sections[index]!.marks_correct
      continue
    }
    const { outcome, marks: gained } = markQuestion(question, answers.get(question.questionId), marks[index]!)
    if (outcome === 'excluded') {
      // A question dropped with `exclude` counts in nothing and its marks leave the most the paper can score.
      excluded++
      tally.max_hundredths -= sections[index]!.marks_correct
      continue
    }
    if (outcome === 'partial') {
      tally.partial++
      tally.incorrect++
    } else tally[outcome]++
    tally.score_hundredths += gained
  }
  const sum = (key: keyof SectionTally) => tallies.reduce((total, tally) => total + tally[key], 0)
  return {
    score_hundredths: sum('score_hundredths'),
    correct: sum('correct'),
    incorrect: sum('incorrect'),
    unanswered: sum('unanswered'),
    total_questions: questions.length - excluded,
    sections: tallies,
  }
}

export function scoreAnswers(
  questions: readonly ScoredQuestion[],
  answers: ReadonlyMap<number, AnswerValue>,
  sections?: readonly AttemptSection[],
): Score {
  const { sections: _sections, ...score } = scoreBySection(questions, answers, sections)
  return score
}

// An integer divided by 100 is the double nearest the decimal, which JSON prints shortest: 260 -> 2.6.
export const toScore = (hundredths: number) => hundredths / 100
