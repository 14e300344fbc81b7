import { describe, expect, it } from 'vitest'
import { formatNumber } from './format'
import { formatRupees, parseRupees } from './money'

describe('money formatting', () => {
  it('shows rupees from paisa in English with Latin digits', () => {
    expect(formatRupees(50000, 'en')).toBe('Rs 500')
    expect(formatRupees(125050, 'en')).toBe('Rs 1,250.50')
    expect(formatRupees(10000000, 'en')).toBe('Rs 1,00,000')
  })

  it('shows rupees in Nepali with Devanagari digits', () => {
    expect(formatRupees(50000, 'ne')).toBe('रु ५००')
    expect(formatRupees(125005, 'ne')).toMatch(/^रु १,?२५०\.०५$/)
    expect(formatNumber(30, 'ne')).toBe('३०')
  })
})

describe('parseRupees', () => {
  it('reads rupees as exact paisa', () => {
    expect(parseRupees('499')).toBe(49900)
    expect(parseRupees('499.5')).toBe(49950)
    expect(parseRupees('1,250.05')).toBe(125005)
    expect(parseRupees('0.29')).toBe(29)
  })
  it('refuses anything else', () => {
    for (const bad of ['', 'abc', '1.234', '-5', '1e3']) expect(parseRupees(bad)).toBeNull()
  })
})
