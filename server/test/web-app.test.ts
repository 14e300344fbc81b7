import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { dialects } from './dialects'
import { useTestApp } from './test-app'

// A built web app as `vite build` leaves it: hashed assets, index.html, and the .br/.gz files beside each.
const webDist = mkdtempSync(path.join(tmpdir(), 'quiz-web-dist-'))
const files = {
  'index.html': '<!doctype html><div id="root"></div><script type="module" src="/assets/index-AbC123.js"></script>',
  'assets/index-AbC123.js': 'console.log("the app");'.repeat(40),
}
mkdirSync(path.join(webDist, 'assets'))
for (const [name, text] of Object.entries(files)) {
  writeFileSync(path.join(webDist, name), text)
  writeFileSync(path.join(webDist, `${name}.br`), brotliCompressSync(text))
  writeFileSync(path.join(webDist, `${name}.gz`), gzipSync(text))
}

describe.each(dialects)('serving the web app on %s', (dialect) => {
  const t = useTestApp(dialect, { WEB_DIST: webDist })

  it('sends a hashed asset brotli-compressed to a browser that accepts it, cached for a year', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-encoding']).toBe('br')
    expect(response.headers['content-type']).toMatch(/javascript/)
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(response.headers['vary']).toMatch(/accept-encoding/i)
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(files['assets/index-AbC123.js'])
  })

  it('sends gzip to a browser without brotli, and the plain file to one that asks for no encoding', async () => {
    const gzipped = await t.app.inject({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(files['assets/index-AbC123.js'])

    const plain = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(files['assets/index-AbC123.js'])
  })

  it('sends index.html compressed and never from a stale cache, also for a client route', async () => {
    for (const url of ['/', '/quiz/7']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } })
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-encoding']).toBe('br')
      expect(response.headers['content-type']).toMatch(/^text\/html/)
      expect(response.headers['cache-control']).toBe('no-cache')
      expect(brotliDecompressSync(response.rawPayload).toString()).toBe(files['index.html'])
    }
  })

  it('keeps API answers out of every cache', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br' } })
    expect(response.headers['cache-control']).toBe('no-store')
  })
})
