import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { useTestApp } from '../../test/test-app'
import { createInstitutesService } from '../institutes/institutes.service'

// A built web app as `vite build` leaves it: hashed assets, index.html, the files vite-plugin-pwa writes for an
// installable, offline-capable app (decision 019), and the .br/.gz files beside each.
const webDist = mkdtempSync(path.join(tmpdir(), 'quiz-web-dist-'))
const files = {
  'index.html':
    '<!doctype html><title>Quiz Practice</title><div id="root"></div>' +
    '<script type="module" src="/assets/index-AbC123.js"></script>',
  // A visitor screen as the web build writes it: its HTML rendered in #root (decision 025).
  'login.html':
    `<!doctype html><title>Quiz Practice</title><script>${'document.documentElement.dataset.x = "1"'}</script>` +
    '<div id="root"><form><input id="login-username"></form></div>' +
    '<script type="module" src="/assets/index-AbC123.js"></script>',
  'assets/index-AbC123.js': 'console.log("the app");'.repeat(40),
  'sw.js': 'self.addEventListener("fetch", () => {})',
  'manifest.webmanifest': JSON.stringify({ name: 'Quiz Practice' }),
  'manifest-ne.webmanifest': JSON.stringify({ name: 'क्विज अभ्यास' }),
}
mkdirSync(path.join(webDist, 'assets'))
for (const [name, text] of Object.entries(files)) {
  writeFileSync(path.join(webDist, name), text)
  writeFileSync(path.join(webDist, `${name}.br`), brotliCompressSync(text))
  writeFileSync(path.join(webDist, `${name}.gz`), gzipSync(text))
}
afterAll(() => rmSync(webDist, { recursive: true, force: true }))

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

  it('sends a visitor screen with its HTML for its path, and index.html when the path has a query', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'br' } })
    expect(login.statusCode).toBe(200)
    expect(login.headers['content-encoding']).toBe('br')
    expect(login.headers['content-type']).toMatch(/^text\/html/)
    expect(login.headers['cache-control']).toBe('no-cache')
    expect(brotliDecompressSync(login.rawPayload).toString()).toBe(files['login.html'])
    const withQuery = await t.app.inject({ method: 'GET', url: '/login?next=1' })
    expect(withQuery.body).toBe(files['index.html'])
    expect((await t.app.inject({ method: 'GET', url: '/login/extra' })).body).toBe(files['index.html'])
  })

  it('keeps API answers out of every cache', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br' } })
    expect(response.headers['cache-control']).toBe('no-store')
  })
})

describe('the web app for offline use', () => {
  const t = useTestApp('sqlite', { WEB_DIST: webDist })
  const get = (url: string) => t.app.inject({ method: 'GET', url })

  it('lets the browser check sw.js and the manifests for a new version every time, and keep hashed assets', async () => {
    for (const url of ['/sw.js', '/manifest.webmanifest', '/manifest-ne.webmanifest', '/']) {
      const response = await get(url)
      expect(response.statusCode, url).toBe(200)
      expect(response.headers['cache-control'], url).toBe('no-cache')
    }
    expect((await get('/assets/index-AbC123.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable')
  })

  it('serves the manifests as manifests and the worker as JavaScript', async () => {
    expect((await get('/manifest.webmanifest')).headers['content-type']).toMatch(/^application\/manifest\+json/)
    // The institute's name in each language (the lone institute's is the product's, migration 0055).
    expect((await get('/manifest-ne.webmanifest')).json()).toMatchObject({ name: 'क्विज अभ्यास' })
    expect((await get('/manifest.webmanifest')).json()).toMatchObject({ name: 'Quiz Practice' })
    expect((await get('/sw.js')).headers['content-type']).toMatch(/^(application|text)\/javascript/)
  })

  it('admits our own worker and manifest in CSP, and nobody else’s', async () => {
    const csp = String((await get('/')).headers['content-security-policy'])
    expect(csp).toContain("worker-src 'self'")
    expect(csp).toContain("manifest-src 'self'")
  })

  it('admits the inline script of a built page by its hash, and no other inline script', async () => {
    const csp = String((await get('/login')).headers['content-security-policy'])
    const hash = createHash('sha256').update('document.documentElement.dataset.x = "1"').digest('base64')
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}';`)
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
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

// WEB.md "Institutes": every page carries the institute of its address from the first response.
describe.each(dialects)('pages of two institutes on %s', (dialect) => {
  const page =
    '<!doctype html><html><head><meta name="theme-color" content="#1d4ed8" /><title>Quiz Practice</title></head>' +
    '<body><div id="root"><header><a class="top-nav__brand" href="/login">Quiz Practice</a></header></div></body></html>'
  const dist = mkdtempSync(path.join(tmpdir(), 'quiz-web-dist-'))
  writeFileSync(path.join(dist, 'index.html'), page)
  writeFileSync(path.join(dist, 'login.html'), page)
  writeFileSync(path.join(dist, 'manifest.webmanifest'), files['manifest.webmanifest'])
  writeFileSync(path.join(dist, 'manifest-ne.webmanifest'), files['manifest-ne.webmanifest'])
  afterAll(() => rmSync(dist, { recursive: true, force: true }))
  const t = useTestApp(dialect, {
    WEB_DIST: dist,
    BASE_DOMAIN: 'quiz.example.np',
    PLATFORM_HOST: 'platform.example.np',
  })
  const get = (host: string, url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { host, ...headers } })

  it('names the institute of the address in the title, the header and the manifest, in its colours', async () => {
    const institutes = createInstitutesService({ database: t.database, config: t.config, clock: t.clock })
    const made = await institutes.create({
      slug: 'pathshala',
      name: { en: 'Pathshala <Loksewa>', ne: 'पाठशाला' },
      hosts: ['pathshala.example.np'],
    })
    await t.database.db.updateTable('institutes').set({ colour: '#facc15' }).where('id', '=', made).execute()
    const login = await get('pathshala.example.np', '/login', { 'accept-encoding': 'br' })
    expect(login.statusCode).toBe(200)
    expect(login.headers['content-encoding']).toBe('br')
    const html = brotliDecompressSync(login.rawPayload).toString()
    expect(html).toContain('<title>Pathshala &lt;Loksewa&gt;</title>')
    expect(html).toContain('<a class="top-nav__brand" href="/login">Pathshala &lt;Loksewa&gt;</a>')
    expect(html).toContain('<meta name="theme-color" content="#facc15" />')
    // A yellow header takes dark text; buttons take the yellow darkened until white text reads on them.
    expect(html).toMatch(/<style id="institute-colours">html:root\{--header-bg:#facc15;--header-text:#111827;/)
    const branding = JSON.parse(
      html
        .match(/<meta name="institute" content="([^"]*)">/)![1]!
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    )
    expect(branding).toMatchObject({ slug: 'pathshala', name: { en: 'Pathshala <Loksewa>', ne: 'पाठशाला' } })
    expect(html).not.toContain('Quiz Practice')

    const main = (await get('main.quiz.example.np', '/quiz/7')).body
    expect(main).toContain('<title>Quiz Practice</title>')
    expect(main).not.toContain('Pathshala')
    expect((await get('pathshala.example.np', '/manifest-ne.webmanifest')).json()).toMatchObject({
      name: 'पाठशाला',
      theme_color: '#facc15',
    })
    expect((await get('main.quiz.example.np', '/manifest.webmanifest')).json()).toMatchObject({ name: 'Quiz Practice' })

    // A rename (made here by another process's service) reaches every process's pages once it reads the table again.
    await institutes.update(made, { name: { en: 'Pathshala Plus' } })
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    expect((await get('pathshala.example.np', '/login')).body).toContain('<title>Pathshala Plus</title>')
  })

  it("serves the platform's address the pages as built, and an unknown host no app at all", async () => {
    await createInstitutesService({ database: t.database, config: t.config, clock: t.clock }).create({
      slug: 'pathshala',
      name: { en: 'Pathshala' },
      hosts: ['pathshala.example.np'],
    })
    expect((await get('platform.example.np', '/')).body).toBe(page)
    expect((await get('nowhere.example.np', '/')).statusCode).toBe(404)
  })
})
