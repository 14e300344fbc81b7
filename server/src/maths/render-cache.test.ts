import { describe, expect, it } from 'vitest'
import { createRenderCache, flatString } from './render-cache'

describe('createRenderCache', () => {
  const cache = (maxChars: number) => createRenderCache<string>({ maxChars, weigh: (value) => value.length })

  it('counts each entry as its key, its value and an overhead, and stays under its budget', () => {
    const renders = cache(1_000)
    renders.set('a', 'x'.repeat(100))
    expect(renders.size()).toEqual({ entries: 1, chars: 64 + 1 + 100 })
    for (let i = 0; i < 50; i++) {
      renders.set(`key ${i}`, 'y'.repeat(150))
      expect(renders.size().chars).toBeLessThanOrEqual(1_000)
    }
    expect(renders.get('a')).toBeUndefined()
    expect(renders.get('key 49')).toBe('y'.repeat(150))
  })

  it('lets the least recently used go first', () => {
    const renders = cache(3 * (64 + 1 + 100))
    for (const key of ['a', 'b', 'c']) renders.set(key, key.repeat(100))
    renders.get('a')
    renders.set('d', 'd'.repeat(100))
    expect(['a', 'b', 'c', 'd'].map((key) => renders.get(key) !== undefined)).toEqual([true, false, true, true])
  })

  it('replaces an entry without counting it twice, and never keeps one bigger than the budget', () => {
    const renders = cache(1_000)
    renders.set('a', 'x'.repeat(100))
    renders.set('a', 'x'.repeat(200))
    expect(renders.size()).toEqual({ entries: 1, chars: 64 + 1 + 200 })
    renders.set('huge', 'z'.repeat(5_000))
    expect(renders.get('huge')).toBeUndefined()
    expect(renders.get('a')).toBe('x'.repeat(200))
  })
})

describe('flatString', () => {
  it('copies every code unit: Devanagari, arrows and lone surrogates', () => {
    for (const text of ['', 'abc', 'बल = ma → x²', '\ud800 lone', `${'a'.repeat(1_000)}${'ब'.repeat(1_000)}`])
      expect(flatString(text)).toBe(text)
  })
})
