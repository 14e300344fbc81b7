import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { useTestApp } from '../../test/test-app'

// The built web app as the server serves it to an installable, offline-capable PWA (decision 019): a small
// stand-in for web/dist with the files vite-plugin-pwa writes.
const dist = mkdtempSync(path.join(tmpdir(), 'quiz-web-dist-'))
mkdirSync(path.join(dist, 'assets'))
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Quiz Practice</title>')
writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})')
writeFileSync(path.join(dist, 'manifest.webmanifest'), JSON.stringify({ name: 'Quiz Practice' }))
writeFileSync(path.join(dist, 'manifest-ne.webmanifest'), JSON.stringify({ name: 'क्विज अभ्यास' }))
writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)')
afterAll(() => rmSync(dist, { recursive: true, force: true }))

describe('the web app for offline use', () => {
  const t = useTestApp('sqlite', { WEB_DIST: dist })
  const get = (url: string) => t.app.inject({ method: 'GET', url })

  it('lets the browser check sw.js and the manifests for a new version every time, and keep hashed assets', async () => {
    for (const url of ['/sw.js', '/manifest.webmanifest', '/manifest-ne.webmanifest', '/']) {
      const response = await get(url)
      expect(response.statusCode, url).toBe(200)
      expect(response.headers['cache-control'], url).toBe('no-cache')
    }
    expect((await get('/assets/index-abc123.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable')
  })

  it('serves the manifests as manifests and the worker as JavaScript', async () => {
    expect((await get('/manifest.webmanifest')).headers['content-type']).toMatch(/^application\/manifest\+json/)
    expect((await get('/manifest-ne.webmanifest')).json()).toEqual({ name: 'क्विज अभ्यास' })
    expect((await get('/sw.js')).headers['content-type']).toMatch(/^(application|text)\/javascript/)
  })

  it('admits our own worker and manifest in CSP, and nobody else’s', async () => {
    const csp = String((await get('/')).headers['content-security-policy'])
    expect(csp).toContain("worker-src 'self'")
    expect(csp).toContain("manifest-src 'self'")
  })

  it('falls back to index.html for app routes but never answers an API path with the app', async () => {
    const page = await get('/quiz/7?q=3')
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<title>Quiz Practice</title>')
    const api = await get('/api/quizzes/7/question/1/')
    expect(api.statusCode).toBe(401)
    expect(api.headers['cache-control']).toBe('no-store')
    const unknown = await get('/api/nothing-here/')
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toEqual({ detail: 'Not found.', code: 'not_found' })
  })
})
