import { describe, expect, it } from 'vitest'
import { nepalMonthStart } from './nepal-month'

describe('nepalMonthStart', () => {
  it('is midnight in Nepal of the first day of the Bikram Sambat month', () => {
    // 2026-11-28 is 2083 Mangsir 12; Mangsir 1 is 2026-11-17, whose Nepal midnight is 2026-11-16T18:15Z.
    expect(new Date(nepalMonthStart(Date.parse('2026-11-28T10:00:00Z'))).toISOString()).toBe('2026-11-16T18:15:00.000Z')
  })

  it('counts an instant by the Nepal day it falls in, not the UTC one', () => {
    const start = Date.parse('2026-11-16T18:15:00Z')
    expect(nepalMonthStart(start)).toBe(start)
    expect(nepalMonthStart(start - 1)).toBeLessThan(start)
  })
})
