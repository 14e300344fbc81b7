import { describe, expect, it } from 'vitest'
import { pageCount, pageIndexes, pageOf } from './navigator-paging'

describe('navigator paging', () => {
  it('puts 10 questions on a page', () => {
    expect(pageCount(10)).toBe(1)
    expect(pageCount(11)).toBe(2)
    expect(pageCount(23)).toBe(3)
    expect(pageIndexes(0, 23)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(pageIndexes(2, 23)).toEqual([20, 21, 22])
  })

  it('has one (possibly short) page for small or empty quizzes', () => {
    expect(pageCount(0)).toBe(1)
    expect(pageIndexes(0, 0)).toEqual([])
    expect(pageIndexes(0, 3)).toEqual([0, 1, 2])
  })

  it('finds the page of a question', () => {
    expect(pageOf(0)).toBe(0)
    expect(pageOf(9)).toBe(0)
    expect(pageOf(10)).toBe(1)
    expect(pageOf(22)).toBe(2)
  })

  it('clamps pages out of range', () => {
    expect(pageIndexes(-1, 12)).toEqual(pageIndexes(0, 12))
    expect(pageIndexes(7, 12)).toEqual([10, 11])
  })
})
