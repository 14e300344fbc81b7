import { describe, expect, it } from 'vitest'
import { attemptSections } from './sections'

const stored = (marksCorrect: number) =>
  JSON.stringify([
    { title_en: 'A', title_ne: '', marks_correct: marksCorrect, marks_wrong: 40, time_limit_minutes: 10, count: 5 },
  ])

describe('attemptSections', () => {
  it('parses stored sections once and shares them, frozen', () => {
    const first = attemptSections(stored(200), 5)
    expect(first).toEqual([expect.objectContaining({ marks_correct: 200, count: 5 })])
    // The same JSON, read again from another attempt's row: the same sections, not a new parse.
    expect(attemptSections(stored(200), 5)).toBe(first)
    expect(attemptSections(stored(100), 5)).not.toBe(first)
    expect(() => {
      ;(first[0] as { count: number }).count = 6
    }).toThrow(TypeError)
    expect(Object.isFrozen(first)).toBe(true)
  })

  it('makes an attempt without stored sections one section of +1 / -0.2 over all its questions', () => {
    expect(attemptSections(null, 7)).toEqual([
      { title_en: '', title_ne: '', marks_correct: 100, marks_wrong: 20, time_limit_minutes: null, count: 7 },
    ])
  })
})
