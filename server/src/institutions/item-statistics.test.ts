import { describe, expect, it } from 'vitest'
import type { KeyedOutcome } from '../questions/answer-keys'
import { computeStatistics } from './item-statistics'

// Five attempts at four questions; option 1 of each question is right, option 2 wrong.
const RIGHT = 1
const WRONG = 2
const pattern = ['1112', '1121', '1222', '2111', '1211']
const answers = pattern.flatMap((row, a) =>
  [...row].map((cell, j) => ({ attempt_id: a + 1, question_id: j + 1, option_id: Number(cell) })),
)
/** The attempts with their scores over the first `k` questions (+1 right, -0.2 wrong). */
const scoredOn = (k: number) =>
  pattern.map((row, a) => ({
    id: a + 1,
    score_hundredths: [...row.slice(0, k)].reduce((sum, cell) => sum + (Number(cell) === RIGHT ? 100 : -20), 0),
  }))
const asWritten = (_attempt: number, _question: number, option: number | null): KeyedOutcome =>
  option === null ? 'unanswered' : option === RIGHT ? 'correct' : 'incorrect'

describe('computeStatistics', () => {
  it('leaves a question excluded by its key out of every figure, as if the test did not hold it', () => {
    const excluded = computeStatistics({
      questionIds: [1, 2, 3, 4],
      outcomeOf: (attempt, question, option) => (question === 4 ? 'excluded' : asWritten(attempt, question, option)),
      // Its marks are out of the stored scores too (docs/decisions/036).
      attempts: scoredOn(3),
      answers,
    })
    const without = computeStatistics({
      questionIds: [1, 2, 3],
      outcomeOf: asWritten,
      attempts: scoredOn(3),
      answers: answers.filter((answer) => answer.question_id !== 4),
    })
    expect(excluded.cronbach_alpha).not.toBeNull()
    expect(excluded.cronbach_alpha).toBe(without.cronbach_alpha)
    expect(excluded.items.slice(0, 3)).toEqual(without.items)
    expect(excluded.items[3]).toMatchObject({ facility: null, discrimination: null, unanswered: 0, flags: [] })
    // What was chosen is still counted.
    expect(Object.fromEntries(excluded.items[3]!.optionCounts)).toEqual({ [RIGHT]: 3, [WRONG]: 2 })
  })

  it('counts a question that scores full marks unanswered as right', () => {
    const figures = computeStatistics({
      questionIds: [1],
      outcomeOf: () => 'correct',
      attempts: [
        { id: 1, score_hundredths: 100 },
        { id: 2, score_hundredths: 100 },
      ],
      answers: [{ attempt_id: 1, question_id: 1, option_id: WRONG }],
    })
    expect(figures.items[0]).toMatchObject({ facility: 1, unanswered: 0 })
  })
})
