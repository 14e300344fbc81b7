import { describe, expect, it } from 'vitest'
import { interpretReading } from './scan-reading'
import {
  anySetChoiceNumbers,
  blankLayout,
  choiceNumbers,
  hasSheet,
  hasWrittenNumbers,
  planSets,
  setLayout,
} from './sitting-sets'

// A mixed paper's answer sheet (docs/decisions/075): only choice questions have rows, at the paper's numbers.

// Paper: 1 choice (4 options), 2 written, 3 choice (3 options), 4 written; sets A and B, B shuffled in one section.
const optionIds = [[11, 12, 13, 14], [], [31, 32, 33], []]
const [a, b] = planSets(2, [{ count: 4 }], optionIds, () => 7)

const numbersOf = (layout: { questions: { number: number; options: unknown[] }[] }) =>
  layout.questions.map((q) => [q.number, q.options.length])

describe("a mixed paper's sheet", () => {
  it("lays out each set's choice questions at the numbers that set prints them, packed", () => {
    expect(choiceNumbers(a!)).toEqual([1, 3])
    expect(numbersOf(setLayout(a!, 'latin', 2))).toEqual([
      [1, 4],
      [3, 3],
    ])
    const layoutA = setLayout(a!, 'latin', 2)
    // Packed: the second row sits where a sheet's second row always does, whatever its number.
    expect(layoutA.questions[1]!.options[0]!.y_mm).toBeCloseTo(layoutA.questions[0]!.options[0]!.y_mm + 5.1)
    const bNumbers = choiceNumbers(b!)
    expect(bNumbers).toHaveLength(2)
    expect(bNumbers.map((n) => b!.options[n - 1]!.length).sort()).toEqual([3, 4])
  })

  it("prints every set's choice numbers on a blank sheet, each with its most options", () => {
    const union = anySetChoiceNumbers([a!, b!])
    expect(union).toEqual([...new Set([...choiceNumbers(a!), ...choiceNumbers(b!)])].sort((x, y) => x - y))
    const blank = blankLayout([a!, b!], 'latin')
    expect(blank.questions.map((q) => q.number)).toEqual(union)
    for (const question of blank.questions)
      expect(question.options).toHaveLength(
        Math.max(...[a!, b!].map((plan) => plan.options[question.number - 1]!.length)),
      )
  })

  it('has no sheet for a written-only paper', () => {
    const [written] = planSets(1, [{ count: 2 }], [[], []])
    expect(hasSheet([written!])).toBe(false)
    expect(hasSheet([a!])).toBe(true)
  })

  it("reads a blank sheet's mark at a number written in the learner's set as a flag, and skips its blank rows", () => {
    const box = { x: 0, y: 0, width: 0.1, height: 0.1, turn: 0 as const }
    const read = interpretReading(
      {
        code: { sittingId: 1, kind: 'blank', serial: 4 },
        roll: 1,
        set: 'A',
        boxes: { roll: box, set: box },
        answers: [
          { number: 1, answer: 'B', box },
          { number: 2, answer: null, box },
          { number: 3, answer: 'A', box },
          { number: 4, answer: 'C', box },
        ],
      },
      [a!],
      'latin',
      { byRoll: () => ({ roll_number: 1, user_id: 5, set_letter: 'A' }), byLearner: () => undefined },
    )
    expect(read.answers).toEqual({ 1: 'B', 3: 'A', 4: null })
    expect(read.flags).toEqual([{ question: 4, kind: 'unclear', marks: ['C'], box }])
  })

  it("reads a multiple question's clear marks as its joined letters, and flags faint ones beside them as unclear", () => {
    const box = { x: 0, y: 0, width: 0.1, height: 0.1, turn: 0 as const }
    // Paper: 1 multiple (4 options), 2 choice (4 options), 3 multiple (3 options): decision 129.
    const [plan] = planSets(
      1,
      [{ count: 3 }],
      [
        [11, 12, 13, 14],
        [21, 22, 23, 24],
        [31, 32, 33],
      ],
      undefined,
      [],
      ['multiple', 'choice', 'multiple'],
    )
    expect(plan!.multiple).toEqual([1, 3])
    const read = (answers: Parameters<typeof interpretReading>[0]['answers']) =>
      interpretReading(
        {
          code: { sittingId: 1, kind: 'roster', rollNumber: 1, userId: 5 },
          roll: 1,
          set: 'A',
          boxes: { roll: box, set: box },
          answers,
        },
        [plan!],
        'latin',
        {
          byRoll: () => ({ roll_number: 1, user_id: 5, set_letter: 'A' }),
          byLearner: () => ({ roll_number: 1, user_id: 5, set_letter: 'A' }),
        },
      )
    const clean = read([
      { number: 1, answer: { flag: 'multiple', marks: ['D', 'A'] }, box },
      { number: 2, answer: { flag: 'multiple', marks: ['A', 'B'] }, box },
      { number: 3, answer: 'B', box },
    ])
    expect(clean.answers).toEqual({ 1: 'AD', 2: null, 3: 'B' })
    // On a one-answer row two marks stay a `multiple` flag.
    expect(clean.flags).toEqual([{ question: 2, kind: 'multiple', marks: ['A', 'B'], box }])
    const doubtful = read([
      { number: 1, answer: { flag: 'multiple', marks: ['A', 'C'], doubtful: ['B'] }, box },
      { number: 2, answer: null, box },
      { number: 3, answer: { flag: 'unclear', marks: ['C'] }, box },
    ])
    expect(doubtful.answers).toEqual({ 1: null, 2: null, 3: null })
    expect(doubtful.flags).toEqual([
      { question: 1, kind: 'unclear', marks: ['A', 'B', 'C'], box },
      { question: 3, kind: 'unclear', marks: ['C'], box },
    ])
  })
})

describe('numeric questions on the sheet (decision 129)', () => {
  const box = { x: 0, y: 0, width: 0.1, height: 0.1, turn: 0 as const }
  // Paper: 1 choice, 2 numeric (2 + 1 digits, 1 decimal), 3 numeric (4 + 0), 4 written; B shuffled in one section.
  const grids = [null, { whole: 2, fraction: 1, decimals: 1 }, { whole: 4, fraction: 0, decimals: 0 }, null]
  const paper = [[11, 12, 13, 14], [], [], []]
  const types = ['choice', 'numeric', 'numeric', 'written']
  const [setA, setB] = planSets(2, [{ count: 4 }], paper, () => 5, [], types, grids)

  it("names each set's numeric rows with their grid at its printed numbers; the sheet draws them as grids", () => {
    expect(setA!.numeric).toEqual([
      { number: 2, whole: 2, fraction: 1, decimals: 1 },
      { number: 3, whole: 4, fraction: 0, decimals: 0 },
    ])
    const moved = setB!.order.map((index, row) => [index, row + 1])
    expect(setB!.numeric!.map((row) => row.number).sort()).toEqual(
      moved
        .filter(([index]) => index === 1 || index === 2)
        .map(([, number]) => number)
        .sort(),
    )
    const layout = setLayout(setA!, 'latin', 2)
    expect(layout.questions.map((q) => q.number)).toEqual([1])
    expect(layout.numeric.map((g) => [g.question, g.columns.length])).toEqual([
      [2, 5],
      [3, 5],
    ])
    expect(hasWrittenNumbers(setA!)).toBe(true)
    expect(hasSheet([{ options: [[], []], numeric: [{ number: 1, whole: 1, fraction: 0, decimals: 0 }] }])).toBe(true)
    // The blank sheet prints every set's grids, each as wide as the widest at its number.
    const blank = blankLayout([setA!, setB!], 'latin')
    const numbers = new Set([...setA!.numeric!, ...setB!.numeric!].map((row) => row.number))
    expect(blank.numeric.map((g) => g.question)).toEqual([...numbers].sort())
    // An older plan has no grids: its numeric questions stay off the sheet.
    expect(setLayout({ ...setA!, numeric: undefined }, 'latin', 2).numeric).toEqual([])
  })

  it("reads a grid's number with the question's decimals; a doubtful grid is numeric_unclear", () => {
    const read = (numeric: Parameters<typeof interpretReading>[0]['numeric']) =>
      interpretReading(
        {
          code: { sittingId: 1, kind: 'roster', rollNumber: 1, userId: 5 },
          roll: 1,
          set: 'A',
          boxes: { roll: box, set: box },
          answers: [{ number: 1, answer: 'A', box }],
          numeric,
        },
        [setA!, setB!],
        'latin',
        {
          byRoll: () => ({ roll_number: 1, user_id: 5, set_letter: 'A' }),
          byLearner: () => ({ roll_number: 1, user_id: 5, set_letter: 'A' }),
        },
      )
    const clean = read([
      { number: 2, answer: '-12.5', box },
      { number: 3, answer: null, box },
    ])
    expect(clean.answers).toEqual({ 1: 'A', 2: '-12.5', 3: null })
    expect(clean.flags).toEqual([])
    const doubtful = read([
      { number: 2, answer: { flag: 'numeric_unclear', marks: ['1/7', '2'] }, box },
      // More decimals than question 3 allows.
      { number: 3, answer: '4.5', box },
    ])
    expect(doubtful.answers).toEqual({ 1: 'A', 2: null, 3: null })
    expect(doubtful.flags).toEqual([
      { question: 2, kind: 'numeric_unclear', marks: ['1/7', '2'], box },
      { question: 3, kind: 'numeric_unclear', marks: ['4.5'], box },
    ])
  })
})

describe("a shuffled set's passages", () => {
  it("moves a passage's questions as one, in their order, across many seeds", () => {
    // 0 and 5 alone; 1..3 under passage 7; 4 alone; 6..7 under passage 9.
    const passageIds = [null, 7, 7, 7, null, null, 9, 9]
    const options = passageIds.map(() => [1, 2])
    for (let seed = 1; seed <= 40; seed++) {
      const [, shuffledSet] = planSets(2, [{ count: 8 }], options, () => seed, passageIds)
      const order = shuffledSet!.order
      const at = (index: number) => order.indexOf(index)
      expect([at(2) - at(1), at(3) - at(2), at(7) - at(6)]).toEqual([1, 1, 1])
      expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    }
  })
})
