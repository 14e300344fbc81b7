import { describe, expect, it } from 'vitest'
import { numericGridSize } from './numeric-grid'

// Decision 129: a numeric question's grid prints as many digit columns as its range needs and its decimals allow.
describe('numeric grid size', () => {
  it('takes whole digits from the largest accepted value and decimals from the question', () => {
    expect(numericGridSize({ value: 3.14, tolerance: 0.01 }, 2)).toEqual({ whole: 1, fraction: 2 })
    expect(numericGridSize({ value: -11, tolerance: 0 }, 0)).toEqual({ whole: 2, fraction: 0 })
    expect(numericGridSize({ min: 95, max: 105 }, 1)).toEqual({ whole: 3, fraction: 1 })
    expect(numericGridSize({ value: 9.5, tolerance: 0.5 }, 0)).toEqual({ whole: 2, fraction: 0 })
  })

  it("takes the key's own decimals when any number of decimals is allowed", () => {
    expect(numericGridSize({ value: 2.5, tolerance: 0.05 }, null)).toEqual({ whole: 1, fraction: 2 })
    expect(numericGridSize({ min: 1, max: 5 }, null)).toEqual({ whole: 1, fraction: 0 })
  })

  it('says a grid too wide for the sheet cannot be printed', () => {
    expect(numericGridSize({ value: 123456, tolerance: 0 }, 3)).toBeNull()
    expect(numericGridSize({ value: 12345, tolerance: 0 }, 3)).toEqual({ whole: 5, fraction: 3 })
  })
})
