import { describe, expect, it } from 'vitest'
import { convertLegacy, legacyToUnicode, type LegacyFont } from './convert'

/*
 * Every key of the Preeti keyboard, without and with Shift, and the AltGr / Alt-code characters the font draws, as
 * docs/legacy-fonts.md lists them. A letter key alone is the letter; a sign key is read after क (`s`), where the font
 * draws it on a letter, so that the test sees the sign land where Unicode stores it.
 */
const letters: Array<[key: string, glyph: string]> = [
  ['a', 'ब'],
  ['b', 'द'],
  ['c', 'अ'],
  ['d', 'म'],
  ['e', 'भ'],
  ['g', 'न'],
  ['h', 'ज'],
  ['i', 'ष्'],
  ['j', 'व'],
  ['k', 'प'],
  ['n', 'ल'],
  ['o', 'य'],
  ['p', 'उ'],
  ['q', 'त्र'],
  ['r', 'च'],
  ['s', 'क'],
  ['t', 'त'],
  ['u', 'ग'],
  ['v', 'ख'],
  ['w', 'ध'],
  ['x', 'ह'],
  ['y', 'थ'],
  ['z', 'श'],
  ['A', 'ब्'],
  ['B', 'द्य'],
  ['C', 'ऋ'],
  ['D', 'म्'],
  ['E', 'भ्'],
  ['G', 'न्'],
  ['H', 'ज्'],
  ['I', 'क्ष्'],
  ['J', 'व्'],
  ['K', 'प्'],
  ['N', 'ल्'],
  ['O', 'इ'],
  ['P', 'ए'],
  ['Q', 'त्त'],
  ['R', 'च्'],
  ['S', 'क्'],
  ['T', 'त्'],
  ['U', 'ग्'],
  ['V', 'ख्'],
  ['W', 'ध्'],
  ['X', 'ह्'],
  ['Y', 'थ्'],
  ['Z', 'श्'],
  ['1', 'ज्ञ'],
  ['2', 'द्द'],
  ['3', 'घ'],
  ['4', 'द्ध'],
  ['5', 'छ'],
  ['6', 'ट'],
  ['7', 'ठ'],
  ['8', 'ड'],
  ['9', 'ढ'],
  ['0', 'ण्'],
  ['!', '१'],
  ['@', '२'],
  ['#', '३'],
  ['$', '४'],
  ['%', '५'],
  ['^', '६'],
  ['&', '७'],
  ['*', '८'],
  ['(', '९'],
  [')', '०'],
  [';', 'स'],
  [':', 'स्'],
  ['/', 'र'],
  ['?', 'रु'],
  ['>', 'श्र'],
  ['`', 'ञ्'],
  ['~', 'ञ्'],
  ['.', '।'],
  ['..', '॥'],
  ['=', '.'],
  ['<', '?'],
  ['-', '('],
  ['_', ')'],
  [',', ','],
  // Two keys, one glyph.
  ['cf', 'आ'],
  ['cf]', 'ओ'],
  ['cf}', 'औ'],
  ['O{', 'ई'],
  ['P]', 'ऐ'],
  ['pm', 'ऊ'],
  ['km', 'फ'],
  ['Km', 'फ्'],
  ['em', 'झ'],
  ['Em', 'झ्'],
  ['qm', 'क्र'],
  ['Qm', 'क्त'],
  ['0f', 'ण'],
  ['if', 'ष'],
  ['If', 'क्ष'],
  // AltGr and Alt codes.
  ['ª', 'ङ'],
  ['Í', 'ङ्क'],
  ['Î', 'ङ्ख'],
  ['Ë', 'ङ्ग'],
  ['‹', 'ङ्घ'],
  ['å', 'द्व'],
  ['›', 'द्र'],
  ['ß', 'द्म'],
  ['¢', 'द्घ'],
  ['Ì', 'न्न'],
  ['Å', 'हृ'],
  ['¿', 'रू'],
  ['§', 'ट्ट'],
  ['Ý', 'ट्ठ'],
  ['¶', 'ठ्ठ'],
  ['•', 'ड्ड'],
  ['„', 'ध्र'],
  ['¡', 'ज्ञ्'],
  ['£', 'घ्'],
  ['‰', 'झ्'],
  ['Œ', 'त्त्'],
  ['ˆ', 'फ्'],
  ['÷', '/'],
  ['Ù', ';'],
  ['Ö', '='],
  ['Ü', '%'],
  ['†', '!'],
  ['±', '+'],
  ['×', '×'],
  ['æ', '“'],
  ['Æ', '”'],
  ['…', '‘'],
  ['Ú', '’'],
  ['ç', 'ॐ'],
  ['´', 'झ'],
  ['k|m', 'फ्र'],
]

/** Signs, typed after क as the typist does (ि before it, the reph after it). */
const signs: Array<[keys: string, unicode: string]> = [
  ['sf', 'का'],
  ['ls', 'कि'],
  ['sL', 'की'],
  ["s'", 'कु'],
  ['s"', 'कू'],
  ['s[', 'कृ'],
  ['s]', 'के'],
  ['s}', 'कै'],
  ['sf]', 'को'],
  ['sf}', 'कौ'],
  ['s\\', 'क्'],
  ['s|', 'क्र'],
  ['s+', 'कं'],
  ['sF', 'कँ'],
  ['sM', 'कः'],
  ['s{', 'र्क'],
  ['6«', 'ट्र'],
  ['8«', 'ड्र'],
  ['6Ø', 'ट्य'],
  ['x\\o', 'ह्य'],
]

describe.each(['preeti', 'kantipur'] as LegacyFont[])('every key of %s', (font) => {
  it.each(letters)('%s is %s', (key, glyph) => {
    expect(legacyToUnicode(key, font)).toBe(glyph)
  })

  it.each(signs)('%s is %s', (keys, unicode) => {
    expect(legacyToUnicode(keys, font)).toBe(unicode)
  })

  it('leaves space, tab and line breaks as they are', () => {
    expect(legacyToUnicode(' \t\r\n', font)).toBe(' \t\r\n')
  })
})

describe('convertLegacy', () => {
  it('has no doubt about any key in the map', () => {
    for (const [key] of letters) expect(convertLegacy(key, 'preeti').doubts).toEqual([])
    for (const [keys] of signs) expect(convertLegacy(keys, 'preeti').doubts).toEqual([])
  })

  it('doubts characters that are no key, and names them', () => {
    const { unicode, doubts } = convertLegacy('g]kfn Ç ©', 'preeti')
    expect(unicode).toBe('नेपाल Ç ©')
    expect(doubts).toEqual(['the characters "Ç" "©" are no Preeti key we know'])
  })

  it('doubts signs left on no letter', () => {
    expect(convertLegacy(']s', 'preeti').doubts).toEqual([])
    expect(convertLegacy('cf ] f', 'preeti').doubts).toEqual(['2 vowel or other signs stand on no letter'])
    expect(convertLegacy(String.raw`\ g`, 'preeti').doubts).toEqual(['1 vowel or other sign stands on no letter'])
  })

  it('doubts the hook m where it completes no letter', () => {
    expect(convertLegacy('km pm', 'preeti').doubts).toEqual([])
    expect(convertLegacy('sm', 'preeti').doubts).toEqual(['the key "m" stands on no letter it can complete'])
  })
})
