import { describe, expect, it } from 'vitest'
import { convertLegacy, legacyToUnicode, type LegacyFont } from './convert'
import { readsAsLegacy } from './detect'
import { districts, offices, people, places, sentences, words } from '../../../test/fixtures/nepali-corpus.fixtures'
import { typeOnPreeti, type TypingStyle } from '../../../test/fixtures/preeti-typist.fixtures'

/*
 * Unicode -> typed on Preeti (preeti-typist.fixtures.ts, which shares only the keyboard with the converter) ->
 * Unicode must give the original, over real Nepali of every kind, typed both with the ASCII keys alone and with the
 * extended characters (ङ, ङ्क, क्त, द्व ...).
 */
const corpus = { districts, places, people, offices, words, sentences }

describe.each(['preeti', 'kantipur'] as LegacyFont[])('the round trip in %s', (font) => {
  describe.each(Object.entries(corpus))('%s', (_name, texts) => {
    it.each(['ascii', 'extended'] as TypingStyle[])('typed with the %s keys, converts back', (style) => {
      const typed = texts.flatMap((text) => {
        const keys = typeOnPreeti(text, style)
        return keys === null ? [] : [{ text: text.normalize('NFC'), keys }]
      })
      if (style === 'extended') expect(typed.length).toBe(texts.length)
      const wrong = typed.filter(({ text, keys }) => legacyToUnicode(keys, font) !== text)
      expect(wrong).toEqual([])
      expect(typed.filter(({ keys }) => convertLegacy(keys, font).doubts.length > 0)).toEqual([])
    })
  })
})

describe('the round trip', () => {
  it('covers ङ, क्त, द्व and the short i before conjuncts', () => {
    const all = Object.values(corpus).flat().join(' ')
    for (const family of ['ङ्क', 'ङ्ग', 'ङ्घ', 'ङ्ख', 'क्ति', 'क्त', 'क्र', 'द्वि', 'द्व', 'न्न', 'ट्ट', 'र्', 'ः', 'ँ', '॥', '।'])
      expect(all).toContain(family)
    expect(districts.length).toBe(77)
    expect(Object.values(corpus).flat().length).toBeGreaterThan(900)
  })

  it('reads every typed sentence as legacy text', () => {
    const missed = sentences.filter((text) => !readsAsLegacy(typeOnPreeti(text, 'extended')!))
    expect(missed).toEqual([])
  })
})
