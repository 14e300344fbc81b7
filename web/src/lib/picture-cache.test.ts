import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PICTURE_CACHE, pictureCaching } from './picture-cache'

describe("the service worker's picture cache", () => {
  it('takes question pictures, cache first, in a bounded cache with an expiry', () => {
    const matches = (href: string) => pictureCaching.urlPattern({ url: new URL(href) })
    expect(matches(`https://quiz.example/api/pictures/${'a'.repeat(64)}.webp`)).toBe(true)
    expect(matches('https://quiz.example/api/quizzes/7/question/1/')).toBe(false)
    expect(matches('https://quiz.example/pictures/x.webp')).toBe(false)
    expect(pictureCaching.handler).toBe('CacheFirst')
    expect(pictureCaching.options.cacheName).toBe(PICTURE_CACHE)
    expect(pictureCaching.options.expiration.maxEntries).toBeGreaterThan(0)
    expect(pictureCaching.options.expiration.maxAgeSeconds).toBeGreaterThan(0)
  })

  it("is one of the worker's runtime caching rules (vite.config.ts)", () => {
    const config = readFileSync(join(import.meta.dirname, '../../vite.config.ts'), 'utf8')
    expect(config).toMatch(/runtimeCaching: \[pictureCaching\]/)
    expect(config).toMatch(/import \{ pictureCaching \} from '\.\/src\/lib\/picture-cache'/)
  })
})
