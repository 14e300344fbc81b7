import { describe, expect, it } from 'vitest'
import { useTestApp } from '../../test/test-app'

// The page's own CSP (worker, manifest, script hashes) is tested in web-app.test.ts and the payments tests.
describe('security headers', () => {
  const t = useTestApp('sqlite')

  it('gives a JSON answer the REST set: nothing may run, frame or sniff it, and no cache keeps it', async () => {
    for (const response of [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      // A refusal is JSON too, sent before any route runs.
      await t.app.inject({ method: 'GET', url: '/api/quizzes/' }),
    ]) {
      expect(response.headers['content-type']).toMatch(/^application\/json/)
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'")
      expect(response.headers['x-frame-options']).toBe('DENY')
      expect(response.headers['x-content-type-options']).toBe('nosniff')
      expect(response.headers['cache-control']).toBe('no-store')
      expect(response.headers['strict-transport-security']).toMatch(/^max-age=\d+/)
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin')
      expect(response.headers['referrer-policy']).toBe('no-referrer')
      // What only a document uses is left out.
      expect(response.headers['cross-origin-opener-policy']).toBeUndefined()
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/quizzes/' })).statusCode).toBe(401)
  })

  it("gives any other answer the page's set", async () => {
    const page = await t.app.inject({ method: 'GET', url: `/api/payments/fake/checkout/?ref=${'0'.repeat(32)}` })
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin')
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN')
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.headers['cache-control']).toBe('no-store')
  })
})
