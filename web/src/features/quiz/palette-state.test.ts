import { describe, expect, it } from 'vitest'
import { countStates, isAnswered, paletteState, stateOf } from './palette-state'

describe('paletteState', () => {
  it.each([
    [{ answered: false, marked: false, visited: false }, 'not_visited'],
    [{ answered: false, marked: false, visited: true }, 'not_answered'],
    [{ answered: true, marked: false, visited: true }, 'answered'],
    [{ answered: false, marked: true, visited: true }, 'marked'],
    [{ answered: true, marked: true, visited: true }, 'answered_marked'],
    // An answer or a mark means the question was seen, even without a recorded visit (older attempts).
    [{ answered: true, marked: false, visited: false }, 'answered'],
    [{ answered: false, marked: true, visited: false }, 'marked'],
  ] as const)('%o is %s', (progress, state) => {
    expect(paletteState(progress)).toBe(state)
  })
})

describe('stateOf and countStates', () => {
  const maps = {
    answers: { '1': 11, '2': null, '3': 31, '5': 51 },
    marked: { '3': true, '4': true, '5': false },
    visited: { '1': true as const, '2': true as const, '3': true as const, '4': true as const, '5': true as const },
  }

  it('reads a cleared answer (null) as not answered and an unmarked question as not marked', () => {
    expect(stateOf(2, maps)).toBe('not_answered')
    expect(stateOf(5, maps)).toBe('answered')
  })

  it('puts every question in exactly one state', () => {
    expect(countStates([1, 2, 3, 4, 5, 6, 7], maps)).toEqual({
      answered: 2,
      not_answered: 1,
      answered_marked: 1,
      marked: 1,
      not_visited: 2,
    })
  })
})

describe('isAnswered', () => {
  it('counts an option, a ticked set and a typed number, not an empty set or an empty string', () => {
    expect([5, [5, 6], '12', null, undefined, [], ''].map(isAnswered)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ])
  })
})
