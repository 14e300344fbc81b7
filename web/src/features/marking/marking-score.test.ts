import { describe, expect, it } from 'vitest'
import type { MarkingRubric } from './marking.api'
import { runningTotal, signedPoints, toggleItem } from './marking-score'

const rubric: MarkingRubric = {
  question_id: 1,
  marks: 10,
  scoring: 'positive',
  floor: 0,
  ceiling: 10,
  groups: [{ id: 1, title: { en: 'Intro', ne: '' }, exclusive: true }],
  items: [
    { id: 11, group_id: 1, points: 2, title: { en: 'Good intro', ne: '' }, explanation: null },
    { id: 12, group_id: 1, points: 0.5, title: { en: 'Weak intro', ne: '' }, explanation: null },
    { id: 13, group_id: null, points: 0.1, title: { en: 'Example', ne: '' }, explanation: null },
    { id: 14, group_id: null, points: 0.2, title: { en: 'Date', ne: '' }, explanation: null },
    { id: 15, group_id: null, points: 9, title: { en: 'Argument', ne: '' }, explanation: null },
  ],
  revision: 3,
}

describe('runningTotal', () => {
  it('adds points in hundredths and clamps to the question’s marks', () => {
    expect(runningTotal(rubric, new Set([13, 14]), 0)).toBe(0.3)
    expect(runningTotal(rubric, new Set([11, 15]), 0)).toBe(10)
    expect(runningTotal(rubric, new Set(), -1)).toBe(0)
  })

  it('starts negative scoring at the marks and honours floor and ceiling', () => {
    const negative = {
      ...rubric,
      scoring: 'negative' as const,
      floor: 2,
      ceiling: 8,
      items: [
        { id: 21, group_id: null, points: -3, title: { en: 'Missing', ne: '' }, explanation: null },
        { id: 22, group_id: null, points: -6, title: { en: 'Wrong', ne: '' }, explanation: null },
      ],
    }
    expect(runningTotal(negative, new Set(), 0)).toBe(8)
    expect(runningTotal(negative, new Set([21]), 0.5)).toBe(7.5)
    expect(runningTotal(negative, new Set([21, 22]), 0)).toBe(2)
  })
})

describe('toggleItem', () => {
  it('applies and removes, one item per exclusive group', () => {
    const one = toggleItem(rubric, new Set(), 11)
    expect([...one]).toEqual([11])
    expect([...toggleItem(rubric, one, 12)]).toEqual([12])
    expect([...toggleItem(rubric, new Set([11, 13]), 11)]).toEqual([13])
    expect([...toggleItem(rubric, new Set([13]), 99)]).toEqual([13])
  })
})

it('signs points as a marker reads them', () => {
  expect(signedPoints(2, String)).toBe('+2')
  expect(signedPoints(-1.5, String)).toBe('−1.5')
  expect(signedPoints(0, String)).toBe('0')
})
