import { acceptsNumber, isKeyNumber, keyNumberText, readNumber } from '@quiz/contracts/rules/numbers'
import { describe, expect, it } from 'vitest'

// The one rule for a typed number (contracts/rules/numbers.ts), on the forms API.md names and on garbage.
describe('readNumber', () => {
  it.each([
    ['11', '11'],
    ['11.0', '11'],
    ['+11', '11'],
    ['११', '11'],
    ['१२.५०', '12.5'],
    ['-3.140', '-3.14'],
    ['\u22123.5', '-3.5'],
    ['-0', '0'],
    ['-0.000', '0'],
    ['007', '7'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['-.25', '-0.25'],
    [' 42 ', '42'],
    ['1२3', '123'],
    ['0.000001', '0.000001'],
  ])('reads %j as %s', (typed, text) => {
    expect(readNumber(typed)).toEqual({ ok: true, text })
  })

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['.', 'malformed'],
    ['+', 'malformed'],
    ['-.', 'malformed'],
    ['1.2.3', 'malformed'],
    ['1,000', 'malformed'],
    ['1e3', 'malformed'],
    ['0x10', 'malformed'],
    ['++1', 'malformed'],
    ['+-1', 'malformed'],
    ['1-', 'malformed'],
    ['1 2', 'malformed'],
    ['12a', 'malformed'],
    ['Infinity', 'malformed'],
    ['NaN', 'malformed'],
    ['١٢', 'malformed'],
    ['１２', 'malformed'],
    ['½', 'malformed'],
    ['1/2', 'malformed'],
    ['1'.repeat(33), 'too_long'],
  ])('refuses %j (%s)', (typed, reason) => {
    expect(readNumber(typed)).toEqual({ ok: false, reason })
  })

  it('counts decimals as typed, trailing zeros included', () => {
    expect(readNumber('11', 0)).toEqual({ ok: true, text: '11' })
    expect(readNumber('11.0', 0)).toEqual({ ok: false, reason: 'too_many_decimals' })
    expect(readNumber('3.14', 2)).toEqual({ ok: true, text: '3.14' })
    expect(readNumber('3.140', 2)).toEqual({ ok: false, reason: 'too_many_decimals' })
    expect(readNumber('३.१४', 2)).toEqual({ ok: true, text: '3.14' })
    expect(readNumber('3.1415926', null)).toEqual({ ok: true, text: '3.1415926' })
    expect(readNumber('5.', 0)).toEqual({ ok: true, text: '5' })
  })
})

describe('acceptsNumber', () => {
  const read = (typed: string) => {
    const result = readNumber(typed)
    if (!result.ok) throw new Error(typed)
    return result.text
  }

  it('takes value ± tolerance with both ends, exactly (no float drift)', () => {
    const key = { value: 3.14, tolerance: 0.01 }
    for (const typed of ['3.13', '3.14', '3.15', '3.130000', '३.१५', '+3.135'])
      expect(acceptsNumber(key, read(typed)), typed).toBe(true)
    for (const typed of ['3.129999', '3.1500001', '-3.14', '3.16'])
      expect(acceptsNumber(key, read(typed)), typed).toBe(false)
    // 0.1 + 0.2 is not 0.3 in doubles; it is here.
    expect(acceptsNumber({ value: 0.3, tolerance: 0 }, read('0.3'))).toBe(true)
    expect(acceptsNumber({ value: 0.1, tolerance: 0.2 }, read('0.3'))).toBe(true)
    expect(acceptsNumber({ value: 0.1, tolerance: 0.2 }, read('0.3000001'))).toBe(false)
  })

  it('takes "11", "11.0", "+11" and "११" as one value', () => {
    const key = { value: 11, tolerance: 0 }
    for (const typed of ['11', '11.0', '+11', '११', '११.००']) expect(acceptsNumber(key, read(typed)), typed).toBe(true)
    expect(acceptsNumber(key, read('11.000001'))).toBe(false)
  })

  it('takes a range with both ends, negative ones too', () => {
    const key = { min: -1.5, max: 2 }
    for (const typed of ['-1.5', '-1.50', '0', '2', '2.000', '1.999999'])
      expect(acceptsNumber(key, read(typed)), typed).toBe(true)
    for (const typed of ['-1.500001', '2.0000001', '-2', '3'])
      expect(acceptsNumber(key, read(typed)), typed).toBe(false)
    expect(acceptsNumber({ min: 1, max: 5 }, read('१'))).toBe(true)
  })

  it('writes key numbers in their shortest form and refuses more than 6 decimals', () => {
    expect(keyNumberText(11)).toBe('11')
    expect(keyNumberText(-0.5)).toBe('-0.5')
    expect(keyNumberText(3.000001)).toBe('3.000001')
    expect(isKeyNumber(3.000001)).toBe(true)
    expect(isKeyNumber(3.1415926)).toBe(false)
    expect(isKeyNumber(Number.NaN)).toBe(false)
    expect(isKeyNumber(1e300)).toBe(false)
  })
})
