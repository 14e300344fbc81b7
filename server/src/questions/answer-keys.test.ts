import { describe, expect, it } from 'vitest'
import { isKeyedCorrect, keyedMarks, keyedOutcome, type AnswerKey } from './answer-keys'

const key = (fields: Partial<AnswerKey>): AnswerKey => ({
  revisionId: 1,
  version: 1,
  versionId: 1,
  action: 'change',
  correct: new Set([2]),
  drop: null,
  note: '',
  decidedAt: 0,
  ...fields,
})

describe('keyedOutcome', () => {
  it('uses the written key without a decision, and the decided right options with one', () => {
    expect(keyedOutcome(1, 1, undefined)).toBe('correct')
    expect(keyedOutcome(2, 1, undefined)).toBe('incorrect')
    expect(keyedOutcome(null, 1, undefined)).toBe('unanswered')
    expect(keyedOutcome(1, 1, key({}))).toBe('incorrect')
    expect(keyedOutcome(2, 1, key({}))).toBe('correct')
    const several = key({ action: 'accept_several', correct: new Set([1, 2]) })
    expect([keyedOutcome(1, 1, several), keyedOutcome(2, 1, several), keyedOutcome(3, 1, several)]).toEqual([
      'correct',
      'correct',
      'incorrect',
    ])
  })

  it('scores a dropped question by its policy', () => {
    const all = key({ action: 'drop', drop: 'full_marks_all' })
    const answered = key({ action: 'drop', drop: 'full_marks_answered' })
    const exclude = key({ action: 'drop', drop: 'exclude' })
    expect([keyedOutcome(null, 1, all), keyedOutcome(3, 1, all)]).toEqual(['correct', 'correct'])
    expect([keyedOutcome(null, 1, answered), keyedOutcome(3, 1, answered)]).toEqual(['unanswered', 'correct'])
    expect([keyedOutcome(null, 1, exclude), keyedOutcome(1, 1, exclude)]).toEqual(['excluded', 'excluded'])
    const marks = { correct: 200, wrong: 40 }
    expect(['correct', 'incorrect', 'unanswered', 'excluded'].map((o) => keyedMarks(o as never, marks))).toEqual([
      200, -40, 0, 0,
    ])
    // A dropped question keeps showing its written key.
    expect([isKeyedCorrect(1, true, exclude), isKeyedCorrect(2, false, exclude)]).toEqual([true, false])
    expect([isKeyedCorrect(1, true, key({})), isKeyedCorrect(2, false, key({}))]).toEqual([false, true])
  })
})
