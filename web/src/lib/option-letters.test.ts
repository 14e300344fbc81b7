import { describe, expect, it } from 'vitest'
import { optionLetter } from './option-letters'

describe('optionLetter', () => {
  it('letters options A, B, C in English', () =>
    expect([0, 1, 2].map((i) => optionLetter(i, 'en'))).toEqual(['A', 'B', 'C']))
  it('letters options क, ख, ग, घ in Nepali', () =>
    expect([0, 1, 2, 3].map((i) => optionLetter(i, 'ne'))).toEqual(['क', 'ख', 'ग', 'घ']))
  it('numbers an option past the tenth', () => expect(optionLetter(10, 'ne')).toBe('11'))
})
