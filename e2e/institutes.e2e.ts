import { request } from 'node:http'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import enInstitute from '../web/src/i18n/locales/en/institute.json'
import enPlatform from '../web/src/i18n/locales/en/platform.json'
import {
  a11yViolations,
  DESKTOP,
  interpolate,
  PHONE,
  screenshot,
  startServer,
  uniquePhone,
  type TestServer,
} from './fixtures'
import { launchBrowser } from './harness.mjs'

// Issue 75, WEB.md "Institutes": two institutes on two host names of one deployment, and the platform's own address.
// Chromium resolves the names to this machine (--host-resolver-rules), so each host is its own origin to the
// browser (its own storage, service worker and caches), as on a real phone that visits both.

const DOMAIN = 'quiz.test'
const HIMAL = { slug: 'main', host: `main.${DOMAIN}`, en: 'Himal Academy', ne: 'हिमाल एकेडेमी', colour: '#0f766e' }
const PATHSHALA = { slug: 'pathshala', host: `pathshala.${DOMAIN}`, en: 'Pathshala', ne: 'पाठशाला', colour: '#b91c1c' }
const HIMAL_EXTRA_HOST = `himal.${DOMAIN}`
const PASSWORD = 'Institute-pass-42'
const PLATFORM_ADMIN = { username: 'platform_root', password: 'Platform-root-77' }
const QUIZ_TITLE = { main: 'Himal weekly test', pathshala: 'Pathshala weekly test' }

let server: TestServer
let browser: Browser
let port: number
const contexts: BrowserContext[] = []
const url = (host: string, path = '/') => `http://${host}:${port}${path}`

/** The API on a host name (Node's fetch cannot set Host): for setting up, never for what the journey must show. */
function hostApi<T = unknown>(host: string, method: string, path: string, body?: unknown, token?: string) {
  return new Promise<{ status: number; body: T }>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          host: `${host}:${port}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () => {
          let parsed: unknown = text
          try {
            parsed = text ? JSON.parse(text) : undefined
          } catch {
            // a page, not JSON
          }
          resolve({ status: response.statusCode ?? 0, body: parsed as T })
        })
      },
    )
    req.on('error', reject)
    if (payload) req.write(payload)
    req.end()
  })
}

async function tokenOn(host: string, username: string, password: string) {
  const { status, body } = await hostApi<{ access: string }>(host, 'POST', '/api/token/', { username, password })
  expect(status, JSON.stringify(body)).toBe(200)
  return body.access
}

function quiz(title: string) {
  return {
    title: { en: title, ne: `${title} (नेपाली)` },
    duration_minutes: 10,
    questions: [1, 2].map((n) => ({
      text: { en: `${title}: question ${n}` },
      options: [0, 1, 2, 3].map((k) => ({ text: { en: `Option ${k + 1}` }, is_correct: k === 0 })),
    })),
  }
}

beforeAll(async () => {
  server = await startServer({ BASE_DOMAIN: DOMAIN })
  port = Number(new URL(server.baseUrl).port)
  browser = await launchBrowser([
    `--host-resolver-rules=MAP *.${DOMAIN} 127.0.0.1, MAP ${DOMAIN} 127.0.0.1`,
    // The service worker needs a secure origin; these names are plain http on this machine.
    `--unsafely-treat-insecure-origin-as-secure=${[HIMAL.host, PATHSHALA.host, DOMAIN].map((h) => url(h, '')).join(',')}`,
  ])
  server.cli('create-institute', ['--slug', PATHSHALA.slug, '--name-en', PATHSHALA.en, '--name-ne', PATHSHALA.ne])
  server.cli('create-admin', [
    '--username',
    PLATFORM_ADMIN.username,
    '--password',
    PLATFORM_ADMIN.password,
    '--phone',
    uniquePhone(),
    '--platform',
  ])
  const platform = await tokenOn(DOMAIN, PLATFORM_ADMIN.username, PLATFORM_ADMIN.password)
  const list = await hostApi<{ results: { id: number; slug: string }[] }>(
    DOMAIN,
    'GET',
    '/api/platform/institutes/',
    undefined,
    platform,
  )
  for (const institute of [HIMAL, PATHSHALA]) {
    const id = list.body.results.find((row) => row.slug === institute.slug)!.id
    const patched = await hostApi(
      DOMAIN,
      'PATCH',
      `/api/platform/institutes/${id}/`,
      {
        name: { en: institute.en, ne: institute.ne },
        colour: institute.colour,
        open_registration: true,
        // An address of its own beside {slug}.{BASE_DOMAIN}: the edit form's host_taken names it.
        ...(institute === HIMAL && { hosts: [HIMAL_EXTRA_HOST] }),
      },
      platform,
    )
    expect(patched.status, JSON.stringify(patched.body)).toBe(200)
  }
  for (const institute of [HIMAL, PATHSHALA]) {
    const admin = { username: `${institute.slug}_admin`, password: PASSWORD }
    server.cli('create-admin', [
      '--username',
      admin.username,
      '--password',
      admin.password,
      '--phone',
      uniquePhone(),
      '--institute',
      institute.slug,
    ])
    const token = await tokenOn(institute.host, admin.username, admin.password)
    const made = await hostApi(
      institute.host,
      'POST',
      '/api/quizzes/create-from-json/',
      quiz(QUIZ_TITLE[institute.slug as 'main']),
      token,
    )
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    server.cli('create-learners', [
      '--count',
      '1',
      '--prefix',
      `${institute.slug}_learner`,
      '--password',
      PASSWORD,
      '--institute',
      institute.slug,
    ])
  }
}, 120_000)

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined)
  await browser?.close()
  await server?.stop()
})

async function open(viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale: 'en-US' })
  contexts.push(context)
  const page = await context.newPage()
  page.setDefaultTimeout(15_000)
  return { context, page }
}

async function signInOnScreen(page: Page, host: string, username: string, password: string) {
  await page.goto(url(host, '/login'))
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Login' }).click()
}

async function expectNoViolations(page: Page, where: string) {
  expect(await a11yViolations(page), where).toEqual([])
}

/** The page shows `own`'s name in `language` and nothing of `other` (its names, its quiz's title). */
async function expectOnly(page: Page, own: typeof HIMAL, other: typeof HIMAL, language: 'en' | 'ne' = 'en') {
  // A page served by the worker (offline) is still rendering when `goto` returns: wait for its own name first.
  await page.getByText(own[language]).first().waitFor()
  const text = await page.locator('body').innerText()
  expect(text).toContain(own[language])
  expect(text).not.toContain(other.en)
  expect(text).not.toContain(other.ne)
  expect(text).not.toContain(QUIZ_TITLE[other.slug as 'main'])
  expect(await page.title()).toContain(own[language])
  expect(await page.title()).not.toContain(other.en)
  expect(await page.title()).not.toContain(other.ne)
}

const pairs = [
  [HIMAL, PATHSHALA],
  [PATHSHALA, HIMAL],
] as const

describe('two institutes on two host names', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    const size = viewport.width
    it(`each learner sees their own institute and nothing of the other (${size} px), with no axe violation`, async () => {
      for (const [own, other] of pairs) {
        const { page } = await open(viewport)
        await signInOnScreen(page, own.host, `${own.slug}_learner1`, PASSWORD)
        await page
          .getByText(QUIZ_TITLE[own.slug as 'main'])
          .first()
          .waitFor()
        expect(new URL(page.url()).pathname).toBe('/')
        await expectOnly(page, own, other)
        // The header carries the institute's colour (or its contrast-kept shade).
        const header = await page
          .locator('header')
          .first()
          .evaluate((el) => getComputedStyle(el).backgroundColor)
        expect(header).not.toBe('rgba(0, 0, 0, 0)')
        await expectNoViolations(page, `${own.slug} dashboard ${size}`)
        await screenshot(page, `institutes-${own.slug}-dashboard-${size}`)
        // The install manifest is the institute's.
        const manifest = await page.evaluate(async () => {
          const href = document.querySelector('link[rel="manifest"]')?.getAttribute('href') ?? '/manifest.webmanifest'
          return (await (await fetch(href)).json()) as { name: string; short_name?: string; icons?: { src: string }[] }
        })
        expect(manifest.name).toContain(own.en)
        expect(JSON.stringify(manifest)).not.toContain(other.en)
        await page.goto(url(own.host, '/results'))
        await page.getByRole('heading', { level: 1 }).first().waitFor()
        await expectOnly(page, own, other)
        await expectNoViolations(page, `${own.slug} results ${size}`)
        // The same screens in Nepali: the institute's Nepali name, still nothing of the other's, no violation.
        await page.evaluate(() => localStorage.setItem('language', 'ne'))
        await page.goto(url(own.host, '/'))
        await page
          .getByText(`${QUIZ_TITLE[own.slug as 'main']} (नेपाली)`)
          .first()
          .waitFor()
        await expectOnly(page, own, other, 'ne')
        await expectNoViolations(page, `${own.slug} dashboard ${size} in Nepali`)
        await screenshot(page, `institutes-${own.slug}-dashboard-${size}-ne`)
        await page.goto(url(own.host, '/results'))
        await page.getByRole('heading', { level: 1 }).first().waitFor()
        await expectOnly(page, own, other, 'ne')
        await expectNoViolations(page, `${own.slug} results ${size} in Nepali`)
      }
    }, 120_000)
  }

  // The admin's screens in the institute's colour: WEB.md's Members, Institute settings, Platform bank, National
  // mocks and Daily set beside the quiz list, in both languages.
  for (const viewport of [PHONE, DESKTOP]) {
    const size = viewport.width
    it(`each institute's admin screens show nothing of the other, with no axe violation, in both languages (${size} px)`, async () => {
      for (const [own, other] of pairs) {
        const { page } = await open(viewport)
        await signInOnScreen(page, own.host, `${own.slug}_admin`, PASSWORD)
        await page.waitForURL((address) => address.pathname !== '/login')
        for (const language of ['en', 'ne'] as const) {
          await page.evaluate((lng) => localStorage.setItem('language', lng), language)
          for (const path of [
            '/admin',
            '/admin/members',
            '/admin/institute',
            '/admin/platform-bank',
            '/admin/national-mocks',
            '/admin/daily-set',
          ]) {
            await page.goto(url(own.host, path))
            await page.getByRole('heading', { level: 1 }).first().waitFor()
            await page.waitForLoadState('networkidle')
            expect(new URL(page.url()).pathname, 'an admin screen, not a redirect').toBe(path)
            await expectOnly(page, own, other, language)
            await expectNoViolations(page, `${own.slug} ${path} in ${language} at ${size}`)
          }
        }
      }
    }, 240_000)
  }

  it('a learner of one institute signing in on the other is told so in a sentence and offered Join', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { page } = await open(viewport)
      await signInOnScreen(page, PATHSHALA.host, 'main_learner1', PASSWORD)
      await page.getByText(interpolate(enInstitute.join.not_a_member, { institute: PATHSHALA.en })).waitFor()
      const join = page.getByRole('button', { name: interpolate(enInstitute.join.join, { institute: PATHSHALA.en }) })
      await join.waitFor()
      const text = await page.locator('body').innerText()
      expect(text).not.toContain(HIMAL.en)
      await expectNoViolations(page, `not a member ${viewport.width}`)
      await screenshot(page, `institutes-not-a-member-${viewport.width}`)
      if (viewport === DESKTOP) {
        await join.click()
        await page.getByText(QUIZ_TITLE.pathshala).first().waitFor()
        await expectOnly(page, PATHSHALA, HIMAL)
      }
    }
  }, 120_000)

  it("one browser visiting both: each host's worker and caches serve only its own pages", async () => {
    const { page } = await open(DESKTOP)
    const origins: string[] = []
    for (const [own, other] of pairs) {
      await signInOnScreen(page, own.host, `${own.slug}_learner1`, PASSWORD)
      await page
        .getByText(QUIZ_TITLE[own.slug as 'main'])
        .first()
        .waitFor()
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      origins.push(await page.evaluate(() => location.origin))
      // Every page this origin's caches hold is this host's, and none carries the other institute's name.
      const cached = await page.evaluate(async () => {
        const found: { url: string; text: string }[] = []
        for (const name of await caches.keys()) {
          const cache = await caches.open(name)
          for (const request of await cache.keys()) {
            const response = await cache.match(request)
            const type = response?.headers.get('content-type') ?? ''
            found.push({ url: request.url, text: type.includes('html') && response ? await response.text() : '' })
          }
        }
        return found
      })
      for (const entry of cached) {
        expect(new URL(entry.url).host).toBe(`${own.host}:${port}`)
        expect(entry.text).not.toContain(other.en)
      }
      // Offline, the worker's page of this host is still this institute's.
      await page.context().setOffline(true)
      await page.goto(url(own.host, '/'))
      await expectOnly(page, own, other)
      await page.context().setOffline(false)
    }
    expect(origins[0]).not.toBe(origins[1])
  }, 120_000)
})

describe("the platform's address", () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`a platform admin lands on /platform, and its screens pass axe (${viewport.width} px)`, async () => {
      const { page } = await open(viewport)
      await signInOnScreen(page, DOMAIN, PLATFORM_ADMIN.username, PLATFORM_ADMIN.password)
      await page.getByRole('heading', { name: enPlatform.platform.institutes.title, level: 1 }).waitFor()
      expect(new URL(page.url()).pathname).toBe('/platform')
      await page.getByRole('row', { name: new RegExp(PATHSHALA.en) }).waitFor()
      await expectNoViolations(page, `platform institutes ${viewport.width}`)
      await screenshot(page, `platform-institutes-${viewport.width}`)
      await page
        .getByRole('button', { name: interpolate(enPlatform.platform.institutes.edit_named, { name: PATHSHALA.en }) })
        .click()
      await page
        .getByRole('heading', { name: interpolate(enPlatform.platform.institutes.edit_title, { name: PATHSHALA.en }) })
        .waitFor()
      await expectNoViolations(page, `platform edit ${viewport.width}`)
      await screenshot(page, `platform-institute-edit-${viewport.width}`)
      // An address another institute has: said at the field.
      const hosts = page
        .getByRole('region', { name: interpolate(enPlatform.platform.institutes.edit_title, { name: PATHSHALA.en }) })
        .getByLabel(enPlatform.platform.institutes.hosts_field)
      await hosts.fill(HIMAL_EXTRA_HOST)
      await page.getByRole('button', { name: enPlatform.platform.institutes.edit_save }).click()
      await page
        .getByText(
          interpolate(enPlatform.platform.institutes.host_taken_by, { host: HIMAL_EXTRA_HOST, name: HIMAL.en }),
        )
        .waitFor()
      expect(await hosts.getAttribute('aria-invalid')).toBe('true')

      await page.getByRole('link', { name: enPlatform.platform.bank.nav }).click()
      await page.getByRole('button', { name: enPlatform.platform.bank.new_question }).click()
      await page.getByLabel('Question (English)').waitFor()
      await expectNoViolations(page, `platform bank form ${viewport.width}`)
      await screenshot(page, `platform-bank-form-${viewport.width}`)

      await page.getByRole('link', { name: enPlatform.platform.national.nav }).click()
      await page.getByRole('heading', { name: enPlatform.platform.national.title, level: 1 }).waitFor()
      await expectNoViolations(page, `platform national ${viewport.width}`)
      await screenshot(page, `platform-national-${viewport.width}`)
    }, 120_000)
  }
})
