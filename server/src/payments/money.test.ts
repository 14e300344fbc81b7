import { describe, expect, it } from 'vitest'
import { paisaToRupees, rupeesToPaisa } from './money'

describe('money', () => {
  it('writes paisa as eSewa rupee strings', () => {
    expect(paisaToRupees(50000)).toBe('500')
    expect(paisaToRupees(12345)).toBe('123.45')
    expect(paisaToRupees(1005)).toBe('10.05')
  })

  it.each([
    ['500', 50000],
    ['500.0', 50000],
    ['1,000.0', 100000],
    ['123.45', 12345],
    ['123.450', 12345],
    [1000.0, 100000],
    [123.45, 12345],
    [0.1, 10],
  ])('reads %j as %i paisa exactly', (value, paisa) => {
    expect(rupeesToPaisa(value)).toBe(paisa)
  })

  it.each(['', 'abc', '-5', '1.005', '12,34.0', '1e3', null, undefined, Number.NaN, 123.456])('refuses %j', (value) => {
    expect(rupeesToPaisa(value)).toBeNull()
  })
})
