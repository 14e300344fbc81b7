import { describe, expect, it } from 'vitest'
import { locales as resources } from './locales'
import { pickLanguage } from './use-bilingual'

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix]
  return Object.entries(value).flatMap(([key, inner]) => keysOf(inner, prefix ? `${prefix}.${key}` : key))
}

describe('locales', () => {
  for (const namespace of Object.keys(resources.en) as (keyof typeof resources.en)[]) {
    it(`ne has every key of en in ${namespace}`, () => {
      const ne = new Set(keysOf(resources.ne[namespace]))
      expect(keysOf(resources.en[namespace]).filter((key) => !ne.has(key))).toEqual([])
    })
    it(`ne translates every string of ${namespace} (none empty)`, () => {
      const empty = keysOf(resources.ne[namespace]).filter((key) => {
        const value = key
          .split('.')
          .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], resources.ne[namespace])
        return typeof value === 'string' && value.trim() === ''
      })
      expect(empty).toEqual([])
    })
  }
})

describe('pickLanguage', () => {
  it('shows Nepali when chosen and present', () => expect(pickLanguage({ en: 'Hello', ne: 'नमस्ते' }, 'ne')).toBe('नमस्ते'))
  it('falls back to English when Nepali is empty', () =>
    expect(pickLanguage({ en: 'Hello', ne: '' }, 'ne')).toBe('Hello'))
  it('falls back to English when Nepali is missing', () => expect(pickLanguage({ en: 'Hello' }, 'ne')).toBe('Hello'))
  it('shows English when English is chosen', () =>
    expect(pickLanguage({ en: 'Hello', ne: 'नमस्ते' }, 'en')).toBe('Hello'))
  it('shows Nepali in English when English is empty (a Nepali-only imported question)', () =>
    expect(pickLanguage({ en: '', ne: 'नमस्ते' }, 'en')).toBe('नमस्ते'))
})
