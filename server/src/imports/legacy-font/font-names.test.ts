import { describe, expect, it } from 'vitest'
import { legacyFontOfName, unsupportedLegacyFontOfName } from './font-names'

describe('legacyFontOfName', () => {
  it.each([
    ['Preeti', 'preeti'],
    ['PREETI', 'preeti'],
    ['preeti', 'preeti'],
    [' Preeti Bold ', 'preeti'],
    ['Kantipur', 'kantipur'],
    ['kantipur', 'kantipur'],
    ['KANTIPUR Regular', 'kantipur'],
  ])('reads %j as %s', (name, font) => {
    expect(legacyFontOfName(name)).toBe(font)
  })

  it.each(['Times New Roman', 'Mangal', 'Kalimati', 'PCS Nepali', 'Sagarmatha', 'Preetii', 'Preeti Nepali', ''])(
    'reads %j as no font we convert',
    (name) => {
      expect(legacyFontOfName(name)).toBeNull()
    },
  )
})

describe('unsupportedLegacyFontOfName', () => {
  it.each([
    ['PCS Nepali', 'PCS Nepali'],
    ['PCS NEPALI', 'PCS Nepali'],
    ['Sagarmatha', 'Sagarmatha'],
    ['Himali', 'Himali'],
    ['FONTASY_HIMALI_TT', 'Himali'],
    ['Kanchan', 'Kanchan'],
  ])('names %j as %s', (name, display) => {
    expect(unsupportedLegacyFontOfName(name)).toBe(display)
  })

  it.each(['Preeti', 'Kantipur', 'Arial', 'Mangal', 'Kalimati', 'Nepali', ''])('does not name %j', (name) => {
    expect(unsupportedLegacyFontOfName(name)).toBeNull()
  })
})
