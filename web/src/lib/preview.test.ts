import { describe, expect, it } from 'vitest'
import { preview } from './preview'

const graphemes = (text: string) =>
  Array.from(new Intl.Segmenter('ne', { granularity: 'grapheme' }).segment(text), (s) => s.segment)

describe('preview', () => {
  it('keeps a text of at most the limit whole, without "..."', () => {
    expect(preview('What is 2 + 2?', 60)).toBe('What is 2 + 2?')
    const exactly60 = 'a'.repeat(60)
    expect(preview(exactly60, 60)).toBe(exactly60)
  })

  it('cuts a longer text to the limit and adds "..."', () => {
    const text = 'x'.repeat(61)
    expect(preview(text, 60)).toBe(`${'x'.repeat(60)}...`)
  })

  it('counts user-perceived characters, so Devanagari syllables are never split', () => {
    // Every "क्ष" and "स्ते" is one grapheme made of three or four code points.
    const text = 'क्षत्रिय नमस्ते '.repeat(10)
    const result = preview(text, 60, 'ne')
    expect(result.endsWith('...')).toBe(true)
    const kept = result.slice(0, -3)
    expect(graphemes(kept).length).toBeLessThanOrEqual(60)
    // The kept part is whole clusters of the original: its clusters are a prefix of the original's clusters.
    expect(graphemes(text.replace(/\s+/g, ' ')).slice(0, graphemes(kept).length).join('')).toBe(kept)
    // No cluster is left dangling with a virama (्) or a lone vowel sign.
    expect(kept).not.toMatch(/[\u094D\u093E-\u094C]$/)
  })

  it('does not cut a Devanagari text whose code units exceed the limit but whose characters do not', () => {
    const text = 'स्ते'.repeat(60) // 240 UTF-16 units, 60 user-perceived characters
    expect(text.length).toBeGreaterThan(60)
    expect(preview(text, 60, 'ne')).toBe(text)
  })

  it('keeps emoji and combined characters whole', () => {
    const family = '👨‍👩‍👧'
    expect(preview(`${family}${family}${family}`, 2)).toBe(`${family}${family}...`)
  })

  it('folds line breaks and runs of spaces into one space', () => {
    expect(preview('  Line one\n\nline   two  ', 60)).toBe('Line one line two')
  })

  it('does not leave a space before "..."', () => {
    expect(preview('abcd efgh', 5)).toBe('abcd...')
  })

  it('works with the admin list limit of 80', () => {
    const text = 'y'.repeat(100)
    expect(preview(text, 80)).toBe(`${'y'.repeat(80)}...`)
  })
})
