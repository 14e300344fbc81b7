import { describe, expect, it } from 'vitest'
import { legacyToUnicode, type LegacyFont } from './convert'

import { groups } from './vectors.fixtures'

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
