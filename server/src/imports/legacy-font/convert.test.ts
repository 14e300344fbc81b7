import { describe, expect, it } from 'vitest'
import { legacyToUnicode, type LegacyFont } from './convert'

import { groups } from '../../../test/fixtures/vectors.fixtures'

describe.each(['preeti', 'kantipur'] as LegacyFont[])('legacyToUnicode in %s', (font) => {
  describe.each(Object.entries(groups))('%s', (_group, vectors) => {
    it.each(vectors)('%s -> %s', (input, unicode) => {
      expect(legacyToUnicode(input, font)).toBe(unicode)
    })
  })
})

describe('legacyToUnicode', () => {
  it('gives NFC text', () => {
    for (const vectors of Object.values(groups))
      for (const [input] of vectors) {
        const out = legacyToUnicode(input, 'preeti')
        expect(out).toBe(out.normalize('NFC'))
      }
  })

  it('leaves no short i or reph mark behind, even with nothing to attach to', () => {
    expect(legacyToUnicode('l', 'preeti')).toBe('ि')
    expect(legacyToUnicode('{', 'preeti')).toBe('र्')
    expect(legacyToUnicode('cf{', 'preeti')).toBe('आर्')
  })

  it('keeps Devanagari the text already holds, and does not move its ि', () => {
    expect(legacyToUnicode('नेपाल g]kfn', 'preeti')).toBe('नेपाल नेपाल')
    expect(legacyToUnicode('कि', 'preeti')).toBe('कि')
  })

  it('reads every ASCII letter as a key: English belongs in its own run, converted apart', () => {
    expect(legacyToUnicode('CPU', 'preeti')).toBe('ऋएग्')
    const sentence = [
      legacyToUnicode(`sDKo'6/ `, 'preeti'),
      'Computer',
      legacyToUnicode(` sf] k'/f gfd s] xf] <`, 'preeti'),
    ].join('')
    expect(sentence).toBe('कम्प्युटर Computer को पुरा नाम के हो ?')
  })

  it('gives an empty text for an empty text', () => {
    expect(legacyToUnicode('', 'kantipur')).toBe('')
  })
})

describe('legacyToUnicode with keepNumbers', () => {
  it.each([
    ['2072 ;fndf', '2072 सालमा'],
    ['jif{ 2081 sf] ah]6', 'वर्ष 2081 को बजेट'],
    ['#=!$ xf]Og 3.14 xf]', '३.१४ होइन 3.14 हो'],
    ['?= 1,250 dfq', 'रु. 1,250 मात्र'],
    ['2081/01/15 .', '2081/01/15 ।'],
    ['-10_', '(10)'],
    ['10% 5 .', '10% छ ।'],
  ])('keeps the ASCII number in %s', (input, unicode) => {
    expect(legacyToUnicode(input, 'preeti', { keepNumbers: true })).toBe(unicode)
  })

  it.each([
    ['5 .', 'छ ।'],
    ['3/', 'घर'],
    ['cf7', 'आठ'],
    ['u08sL', 'गण्डकी'],
    ['1fg', 'ज्ञान'],
  ])('still reads digit keys as letters in words: %s', (input, unicode) => {
    expect(legacyToUnicode(input, 'preeti', { keepNumbers: true })).toBe(unicode.normalize('NFC'))
  })

  it('reads numbers as the font draws them without it', () => {
    expect(legacyToUnicode('2072', 'preeti')).toBe(legacyToUnicode('2072', 'preeti', { keepNumbers: false }))
    expect(legacyToUnicode('2072', 'preeti')).not.toBe('2072')
  })
})

describe("the typist's colon", () => {
  it('joins a letter or sign, not a danda or digit', () => {
    expect(legacyToUnicode('xf] . M', 'preeti')).toBe('हो । ः')
    expect(legacyToUnicode('! M', 'preeti')).toBe('१ ः')
    expect(legacyToUnicode('ljifo M', 'preeti')).toBe('विषयः')
  })
})
