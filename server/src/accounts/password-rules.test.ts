import { describe, expect, it } from 'vitest'
import { commonPasswordCount, isCommonPassword, isTooSimilar, passwordProblems } from './password-rules'

describe('password rules', () => {
  it('ships a list of at least 10,000 common passwords', () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(10_000)
  })

  it('finds common passwords whatever their case', () => {
    expect(isCommonPassword('password')).toBe(true)
    expect(isCommonPassword('PassWord')).toBe(true)
    expect(isCommonPassword('trustno1')).toBe(true)
    expect(isCommonPassword('Himal-Chiya-2026')).toBe(false)
  })

  it('calls a password too similar when either contains the other, ignoring case', () => {
    expect(isTooSimilar('xxRAMxx-123', 'ram')).toBe(true)
    expect(isTooSimilar('Ram', 'ramesh.k')).toBe(true)
    expect(isTooSimilar('Himal-Chiya-2026', 'ramesh')).toBe(false)
  })

  it('lists every problem of a password', () => {
    expect(passwordProblems('12345', 'sita')).toEqual([
      'This password is too short. It must contain at least 8 characters.',
      'This password is entirely numeric.',
      'This password is too common.',
    ])
    expect(passwordProblems('Himal-Chiya-2026', 'sita')).toEqual([])
  })
})
