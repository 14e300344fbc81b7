import { describe, expect, it } from 'vitest'
import type { AnswerKey } from './answer-keys'
import { scoreBySection, toScore, type AnswerValue, type ScoredQuestion } from './scoring'
import type { AttemptSection } from './sections'
import { markChoice, markMultiple, markNumeric, type SectionMarks } from './type-marks'

// Marking as data, checked against the published rules, not against the code's own reading of API.md.

const OPTIONS = [1, 2, 3, 4]
/** Every subset of the four options, as lists. */
const subsets = Array.from({ length: 16 }, (_, mask) => OPTIONS.filter((_, bit) => mask & (1 << bit)))

/**
 * JEE Advanced's instructions for "ONE OR MORE THAN ONE" correct options, word for word as marks:
 * Full +4 if only (all) the correct option(s) is(are) chosen; Partial +3 if all four options are correct but ONLY
 * three options are chosen; +2 if three or more options are correct but ONLY two options are chosen, both of which
 * are correct; +1 if two or more options are correct but ONLY one option is chosen and it is a correct option;
 * Zero 0 if none of the options is chosen (i.e. the question is unanswered); Negative -2 in all other cases.
 */
function jeeAdvanced(right: number[], chosen: number[]): number {
  const allRight = chosen.every((id) => right.includes(id))
  if (chosen.length === 0) return 0
  if (allRight && chosen.length === right.length) return 4
  if (right.length === 4 && chosen.length === 3 && allRight) return 3
  if (right.length >= 3 && chosen.length === 2 && allRight) return 2
  if (right.length >= 2 && chosen.length === 1 && allRight) return 1
  return -2
}

/** GATE's MSQ: marks only when every right option and no wrong one is chosen; no negative and no partial marks. */
const gateMsq = (right: number[], chosen: number[], marks: number) =>
  chosen.length === right.length && chosen.every((id) => right.includes(id)) ? marks : 0

const JEE_ADVANCED: SectionMarks = { correct: 400, wrong: 200, multiple: { scheme: 'partial', partial: 100 } }

describe('markMultiple', () => {
  const rightSets = subsets.filter((set) => set.length > 0)

  it('gives JEE Advanced +4/+3/+2/+1/0/-2 for every right set and every answer of four options', () => {
    let checked = 0
    for (const right of rightSets)
      for (const chosen of subsets) {
        const marked = markMultiple(chosen, new Set(right), JEE_ADVANCED)
        expect(marked.marks, `right ${right} chosen ${chosen}`).toBe(jeeAdvanced(right, chosen) * 100)
        checked++
      }
    expect(checked).toBe(15 * 16)
  })

  it.each([1, 2])("gives GATE's all-or-nothing MSQ for a %i-mark question", (points) => {
    const gate: SectionMarks = { correct: points * 100, wrong: 0, multiple: { scheme: 'all_or_nothing', partial: 100 } }
    for (const right of rightSets)
      for (const chosen of subsets)
        expect(markMultiple(chosen, new Set(right), gate).marks, `right ${right} chosen ${chosen}`).toBe(
          gateMsq(right, chosen, points * 100),
        )
  })

  it('counts outcomes as API.md does: correct is full marks, partial between, incorrect any other answered', () => {
    const right = new Set([1, 2, 3])
    expect(markMultiple([1, 2, 3], right, JEE_ADVANCED)).toEqual({ outcome: 'correct', marks: 400 })
    expect(markMultiple([3, 1], right, JEE_ADVANCED)).toEqual({ outcome: 'partial', marks: 200 })
    expect(markMultiple([1, 4], right, JEE_ADVANCED)).toEqual({ outcome: 'incorrect', marks: -200 })
    expect(markMultiple([], right, JEE_ADVANCED)).toEqual({ outcome: 'unanswered', marks: 0 })
    expect(markMultiple(null, right, JEE_ADVANCED)).toEqual({ outcome: 'unanswered', marks: 0 })
    // A repeated id is one choice.
    expect(markMultiple([1, 1, 2, 2, 3], right, JEE_ADVANCED)).toEqual({ outcome: 'correct', marks: 400 })
    // all_or_nothing is the default scheme: a subset of the right set loses marks_wrong.
    expect(markMultiple([1], right, { correct: 400, wrong: 200 })).toEqual({ outcome: 'incorrect', marks: -200 })
    // partial_marks 0: a right subset gains nothing and is answered, so incorrect.
    const none: SectionMarks = { correct: 400, wrong: 200, multiple: { scheme: 'partial', partial: 0 } }
    expect(markMultiple([1], right, none)).toEqual({ outcome: 'incorrect', marks: 0 })
    // Partial marks stop at full marks.
    const generous: SectionMarks = { correct: 300, wrong: 100, multiple: { scheme: 'partial', partial: 200 } }
    expect(markMultiple([1, 2], right, generous)).toEqual({ outcome: 'correct', marks: 300 })
    expect(markMultiple([1], right, generous)).toEqual({ outcome: 'partial', marks: 200 })
  })

  it('follows a key decision: a changed right set, and drops', () => {
    const key = (action: AnswerKey['action'], correct: number[], drop: AnswerKey['drop'] = null): AnswerKey => ({
      revisionId: 1,
      version: 1,
      versionId: 1,
      action,
      correct: new Set(correct),
      drop,
      note: '',
      decidedAt: 0,
    })
    const right = new Set([1, 2])
    expect(markMultiple([1, 2], right, JEE_ADVANCED, key('change', [3])).marks).toBe(-200)
    expect(markMultiple([3], right, JEE_ADVANCED, key('change', [3])).marks).toBe(400)
    expect(markMultiple([], right, JEE_ADVANCED, key('drop', [], 'full_marks_all')).marks).toBe(400)
    expect(markMultiple([], right, JEE_ADVANCED, key('drop', [], 'full_marks_answered')).outcome).toBe('unanswered')
    expect(markMultiple([4], right, JEE_ADVANCED, key('drop', [], 'full_marks_answered')).marks).toBe(400)
    expect(markMultiple([1], right, JEE_ADVANCED, key('drop', [], 'exclude')).outcome).toBe('excluded')
  })
})

describe('markNumeric', () => {
  const jeeMain: SectionMarks = { correct: 400, wrong: 100 }
  const gate: SectionMarks = { correct: 200, wrong: 67, numericNegative: false }
  const question = { answer: { value: 2.5, tolerance: 0.05 }, decimals: 2 }

  it('gives marks_correct within the tolerance, -marks_wrong outside, 0 blank', () => {
    expect(markNumeric('2.45', question, jeeMain)).toEqual({ outcome: 'correct', marks: 400 })
    expect(markNumeric('२.५५', question, jeeMain)).toEqual({ outcome: 'correct', marks: 400 })
    expect(markNumeric('2.56', question, jeeMain)).toEqual({ outcome: 'incorrect', marks: -100 })
    expect(markNumeric(null, question, jeeMain)).toEqual({ outcome: 'unanswered', marks: 0 })
    expect(markNumeric('', question, jeeMain)).toEqual({ outcome: 'unanswered', marks: 0 })
  })

  it("loses nothing with numeric_negative false (GATE's NAT)", () => {
    expect(markNumeric('3', question, gate)).toEqual({ outcome: 'incorrect', marks: 0 })
    expect(markNumeric('2.5', question, gate)).toEqual({ outcome: 'correct', marks: 200 })
  })

  it('takes a range with both ends', () => {
    const range = { answer: { min: 1, max: 5 }, decimals: null }
    for (const typed of ['1', '5', '+5.0', '३'])
      expect(markNumeric(typed, range, jeeMain).outcome, typed).toBe('correct')
    for (const typed of ['0.999', '5.001', '-3'])
      expect(markNumeric(typed, range, jeeMain).outcome, typed).toBe('incorrect')
  })
})

describe('markChoice', () => {
  it('gives the section marks and -1/3 as GATE writes it (0.33)', () => {
    const gateMcq: SectionMarks = { correct: 100, wrong: 33 }
    expect(markChoice(2, 2, gateMcq)).toEqual({ outcome: 'correct', marks: 100 })
    expect(markChoice(1, 2, gateMcq)).toEqual({ outcome: 'incorrect', marks: -33 })
    expect(markChoice(null, 2, gateMcq)).toEqual({ outcome: 'unanswered', marks: 0 })
  })
})

describe('scoreBySection with every type', () => {
  // A JEE Advanced-like paper: section 1 single-answer (+3/-1), section 2 multiple (+4/+3/+2/+1/0/-2), section 3
  // numeric (+4/0); then GATE's: MCQ +2/-0.67, MSQ +2 all or nothing, NAT +2 no negative.
  const sections: AttemptSection[] = [
    { title_en: 'S', title_ne: '', marks_correct: 300, marks_wrong: 100, time_limit_minutes: null, count: 2 },
    {
      title_en: 'M',
      title_ne: '',
      marks_correct: 400,
      marks_wrong: 200,
      time_limit_minutes: null,
      count: 4,
      multiple_scheme: 'partial',
      partial_marks: 100,
    },
    {
      title_en: 'N',
      title_ne: '',
      marks_correct: 400,
      marks_wrong: 0,
      time_limit_minutes: null,
      count: 2,
    },
    {
      title_en: 'GATE',
      title_ne: '',
      marks_correct: 200,
      marks_wrong: 67,
      time_limit_minutes: null,
      count: 3,
      numeric_negative: false,
    },
  ]
  const choice = (id: number, right: number): ScoredQuestion => ({ questionId: id, correctOptionId: right })
  const multiple = (id: number, right: number[]): ScoredQuestion => ({
    questionId: id,
    correctOptionId: null,
    type: 'multiple',
    correctOptionIds: new Set(right),
  })
  const numeric = (id: number, value: number, tolerance: number): ScoredQuestion => ({
    questionId: id,
    correctOptionId: null,
    type: 'numeric',
    numeric: { answer: { value, tolerance }, decimals: 2 },
  })
  const questions = [
    choice(1, 11),
    choice(2, 21),
    multiple(3, [31, 32, 33, 34]),
    multiple(4, [41, 42]),
    multiple(5, [51]),
    multiple(6, [61, 62]),
    numeric(7, 1.5, 0),
    numeric(8, 10, 0.5),
    choice(9, 91),
    multiple(10, [101, 102]),
    numeric(11, 3, 0),
  ]
  const answers = new Map<number, AnswerValue>([
    [1, 11], // +3
    [2, 22], // -1
    [3, [31, 32, 33]], // +3
    [4, [41]], // +1
    [5, [51, 52]], // -2
    [6, null], // 0
    [7, '१.५०'], // +4
    [8, '11'], // 0 (marks_wrong 0)
    [9, 92], // -0.67
    [10, [101]], // GATE MSQ: -0.67 with all_or_nothing, as marks_wrong is the section's
    [11, '4'], // 0: numeric_negative false
  ])

  it('sums exact hundredths per section and in all', () => {
    const score = scoreBySection(questions, answers, sections)
    expect(score.sections.map((section) => section.score_hundredths)).toEqual([200, 200, 400, -134])
    expect(score.sections.map((section) => section.max_hundredths)).toEqual([600, 1600, 800, 600])
    expect(toScore(score.score_hundredths)).toBe(6.66)
    expect(score).toMatchObject({ correct: 2, incorrect: 8, unanswered: 1, total_questions: 11 })
    expect(score.sections.map((section) => section.partial)).toEqual([0, 2, 0, 0])
  })
})
