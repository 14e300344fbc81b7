import { keyedMarks, keyedOutcome, type AnswerKey } from './answer-keys'
import { attemptSections, type AttemptSection } from './sections'

/** Marking scheme of SPEC.md in hundredths of a point, so sums stay exact integers. */
export const POINTS_CORRECT = 100
export const POINTS_INCORRECT = -20

export interface ScoredQuestion {
  questionId: number
  correctOptionId: number | null
  key?: AnswerKey
  /** Absent for a choice question; another type is marked by its own marker (outcomes/markers.ts). */
  type?: string
}

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
}

export function scoreBySection(
  questions: readonly ScoredQuestion[],
  answers: ReadonlyMap<number, number | null>,
  sections: readonly AttemptSection[] = attemptSections(null, questions.length),
): Score & { sections: SectionTally[] } {
  const tallies: SectionTally[] = sections.map((section) => ({
    score_hundredths: 0,
    max_hundredths: section.count * section.marks_correct,
    correct: 0,
    incorrect: 0,
    unanswered: 0,
  }))
  const marks = sections.map((section) => ({ correct: section.marks_correct, wrong: section.marks_wrong }))
  // Walked place by place, with no array of places: this runs twice on every submit of a storm.
  const last = sections.length - 1
  let index = 0
  let sectionEnd = sections[0]?.count ?? 0
  let excluded = 0
  for (let place = 0; place < questions.length; place++) {
    while (place >= sectionEnd && index < last) sectionEnd += sections[++index]!.count
    const question = questions[place]!
    const tally = tallies[index]!
    if (question.type !== undefined) {
      tally.max_hundredths -= sections[index]!.marks_correct
      continue
    }
    const outcome = keyedOutcome(answers.get(question.questionId) ?? null, question.correctOptionId, question.key)
    if (outcome === 'excluded') {
      // A question dropped with `exclude` counts in nothing and its marks leave the most the paper can score.
      excluded++
      tally.max_hundredths -= sections[index]!.marks_correct
      continue
    }
    tally[outcome]++
    tally.score_hundredths += keyedMarks(outcome, marks[index]!)
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
  answers: ReadonlyMap<number, number | null>,
  sections?: readonly AttemptSection[],
): Score {
  const { sections: _sections, ...score } = scoreBySection(questions, answers, sections)
  return score
}

// An integer divided by 100 is the double nearest the decimal, which JSON prints shortest: 260 -> 2.6.
export const toScore = (hundredths: number) => hundredths / 100
