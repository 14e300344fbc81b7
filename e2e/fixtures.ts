import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import { freePort, launchBrowser, waitForHealth } from './harness.mjs'

const root = path.resolve(import.meta.dirname, '..')
export const artifacts = path.join(root, 'e2e/.artifacts')

export const PHONE = { width: 360, height: 740 }
export const DESKTOP = { width: 1280, height: 860 }
export const TABLET = { width: 768, height: 1024 }

export interface TestServer {
  baseUrl: string
  dataDir: string
  env: NodeJS.ProcessEnv
  stop(): Promise<void>
  /** The 6-digit code of the last SMS the console outbox holds for `phone`. */
  readOtp(phone: string): string
  /** Runs one of the server's CLIs (`create-admin`, `grant-paid-access`, ...) against this server's database. */
  cli(name: string, args: string[]): string
  /** Calls the API directly (for setup, never for what the journey itself must show). */
  api<T = unknown>(method: string, url: string, body?: unknown, token?: string): Promise<{ status: number; body: T }>
  login(username: string, password: string): Promise<{ access: string; refresh: string }>
}

/** Starts `server/dist/main.js` (built by `npm run build`) on a free port with a fresh data directory. */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const main = path.join(root, 'server/dist/main.js')
  if (!existsSync(main) || !existsSync(path.join(root, 'web/dist/index.html'))) {
    throw new Error('Build first: npm run build')
  }
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quiz-e2e-'))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    SMS_PROVIDER: 'console',
    ...extraEnv,
  }
  const child: ChildProcess = spawn(process.execPath, [main], { env, stdio: ['ignore', 'ignore', 'inherit'] })
  const baseUrl = `http://127.0.0.1:${port}`
  await waitForHealth(baseUrl, child)

  async function api<T>(method: string, url: string, body?: unknown, token?: string) {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T }
  }

  return {
    baseUrl,
    dataDir,
    env,
    api,
    async stop() {
      child.kill('SIGTERM')
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))
      rmSync(dataDir, { recursive: true, force: true })
    },
    readOtp(phone: string) {
      const outbox = path.join(dataDir, 'sms-outbox.jsonl')
      const lines = existsSync(outbox) ? readFileSync(outbox, 'utf8').trim().split('\n').filter(Boolean) : []
      const last = lines.map((line) => JSON.parse(line) as { to: string; text: string }).findLast((m) => m.to === phone)
      const code = last?.text.match(/\b(\d{6})\b/)?.[1]
      if (!code) throw new Error(`no OTP in the outbox for ${phone}`)
      return code
    },
    cli(name: string, args: string[]) {
      const result = spawnSync(process.execPath, [path.join(root, `server/dist/cli/${name}.js`), ...args], {
        env,
        encoding: 'utf8',
      })
      if (result.status !== 0) throw new Error(`${name} failed: ${result.stderr}${result.stdout}`)
      return result.stdout
    },
    async login(username: string, password: string) {
      const { status, body } = await api<{ access: string; refresh: string }>('POST', '/api/token/', {
        username,
        password,
      })
      if (status !== 200) throw new Error(`login failed for ${username}: ${status}`)
      return body
    },
  }
}

export interface PageOptions {
  viewport?: { width: number; height: number }
  language?: 'en' | 'ne'
  timezoneId?: string
  /** Where the browser finds the server, if not at its own address (a `NetworkLink`'s). */
  baseUrl?: string
}

/** A connection to the server that a test can cut and restore, the way a phone loses its network. */
export interface NetworkLink {
  baseUrl: string
  cut(): void
  restore(): void
  close(): Promise<void>
}

/**
 * A TCP relay in front of the server. Chromium's offline emulation alone is not a lost network: while a page
 * reloads, the document going away is released from it (it even hears `online`) and its last requests get
 * through. Cut, the relay closes every connection and refuses new ones, so nothing reaches the server.
 */
export async function startNetworkLink(server: TestServer): Promise<NetworkLink> {
  const target = new URL(server.baseUrl)
  const sockets = new Set<Socket>()
  let up = true
  const relay = createServer((client) => {
    if (!up) return client.destroy()
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) })
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => undefined)
    }
    client.pipe(upstream).pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve))
  return {
    baseUrl: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    cut() {
      up = false
      for (const socket of sockets) socket.destroy()
    },
    restore() {
      up = true
    },
    close() {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => relay.close(() => resolve()))
    },
  }
}

/** A fresh browser context (its own localStorage) at `baseUrl`, optionally with the app already in `language`. */
export async function newPage(
  browser: Browser,
  server: TestServer,
  { viewport = DESKTOP, language, timezoneId, baseUrl = server.baseUrl }: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport, locale: 'en-US', timezoneId })
  if (language) await context.addInitScript((lng) => localStorage.setItem('language', lng), language)
  const page = await context.newPage()
  page.setDefaultTimeout(15_000)
  return { context, page }
}

/**
 * Where the exam's question palette is: above the question on a wider screen; on a phone, in a sheet behind the
 * counts button (issue 46), opened here. Picking a question closes the sheet; `closeExamPalette` closes it after
 * only reading it.
 */
export async function examPalette(page: Page): Promise<Locator> {
  const button = page.locator('.quiz__palette-button')
  if (!(await button.isVisible())) return page.locator('.quiz')
  const sheet = page.locator('dialog.dialog--sheet')
  if (!(await sheet.isVisible())) await button.click()
  await sheet.waitFor()
  return sheet
}

export async function closeExamPalette(page: Page) {
  const sheet = page.locator('dialog.dialog--sheet')
  if (!(await sheet.isVisible())) return
  await page.keyboard.press('Escape')
  await sheet.waitFor({ state: 'detached' })
}

/** The site's navigation: during an exam on a phone it is behind the exam's Menu button (issue 46), opened here. */
export async function showSiteNavigation(page: Page) {
  const menu = page.locator('.quiz__menu')
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false') await menu.click()
}

/** Puts a session in localStorage the way the login screen does, for journeys that do not test login itself. */
export async function signIn(page: Page, server: TestServer, username: string, password: string) {
  const tokens = await server.login(username, password)
  await page.goto('/login')
  await page.evaluate(({ access, refresh }) => {
    localStorage.setItem('accessToken', access)
    localStorage.setItem('refreshToken', refresh)
  }, tokens)
  return tokens
}

export interface Credentials {
  username: string
  password: string
}

/**
 * The server (with `env` added to its settings) and Chromium of one journey file: started before its tests, stopped
 * after them together with every page `open` made. Call it at the top of the file, so that its hooks run before the file's own.
 */
export function setUpJourney(env: Record<string, string> = {}) {
  let server: TestServer | undefined
  let browser: Browser | undefined
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    server = await startServer(env)
    browser = await launchBrowser()
  })
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined)
    await browser?.close()
    await server?.stop()
  })

  const started = () => {
    if (!server || !browser) throw new Error('the journey starts in beforeAll: use it from a hook or a test')
    return { server, browser }
  }
  return {
    get server() {
      return started().server
    },
    /** A fresh page (see newPage), signed in as `user` when given (see signIn). */
    async open({ user, ...options }: PageOptions & { user?: Credentials } = {}) {
      const { server, browser } = started()
      const { context, page } = await newPage(browser, server, options)
      contexts.push(context)
      if (user) await signIn(page, server, user.username, user.password)
      return page
    },
  }
}

/** Makes an admin with the server's CLI; returns their access token for setting up through the API. */
export async function createAdmin(
  server: TestServer,
  { username, password, phone = uniquePhone() }: Credentials & { phone?: string },
) {
  server.cli('create-admin', ['--username', username, '--password', password, '--phone', phone])
  return (await server.login(username, password)).access
}

/** Creates a quiz through the admin API (POST /api/quizzes/create-from-json/); returns its id. */
export async function createQuiz(server: TestServer, adminToken: string, quiz: unknown) {
  const { status, body } = await server.api<{ quiz_id: number }>(
    'POST',
    '/api/quizzes/create-from-json/',
    quiz,
    adminToken,
  )
  expect(status).toBe(201)
  return body.quiz_id
}

/** Submits the exam on screen and confirms it (in English); returns the score dialog that follows. */
export async function submitExam(page: Page) {
  await page.getByRole('button', { name: enQuiz.submit_quiz }).click()
  await page
    .getByRole('dialog', { name: enQuiz.confirm.title })
    .getByRole('button', { name: enQuiz.confirm.confirm })
    .click()
  return page.getByRole('dialog', { name: enQuiz.score.title })
}

/** Waits for a heading (level 1 unless told) and returns it. */
export async function waitForHeading(
  page: Page,
  name: string | RegExp,
  { level = 1, exact = false }: { level?: number; exact?: boolean } = {},
) {
  const heading = page.getByRole('heading', { name, level, exact })
  await heading.waitFor()
  return heading
}

let axeSource: string | undefined

/** Runs axe-core's WCAG 2.1 A and AA rules in the page; returns every violation, of any impact (the tests expect none). */
export async function a11yViolations(page: Page) {
  // Evaluated through the DevTools protocol: an injected <script> tag would be refused by the app's CSP.
  axeSource ??= readFileSync(path.join(root, 'node_modules/axe-core/axe.min.js'), 'utf8')
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: { runOnly: { type: 'tag'; values: string[] } },
          ): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>
        }
      }
    ).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    return result.violations
  })
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  )
}

export async function expectAccessible(page: Page) {
  expect(await a11yViolations(page)).toEqual([])
}

type DomNode = { nodeId: number; nodeType: number; shadowRoots?: DomNode[]; children?: DomNode[] }

/**
 * The fonts Chromium drew an element's text with (a field's typed text included, in its inner shadow tree). A text
 * drawn in a font without its script shows boxes ("tofu"): a Devanagari text must be drawn by the shipped font.
 */
export async function fontsDrawing(page: Page, selector: string): Promise<string[]> {
  // The shipped fonts load when a text first needs them (unicode-range), and text is drawn in a fallback until then.
  await page.locator(selector).evaluate(async (element) => {
    const style = getComputedStyle(element)
    const text = (element as HTMLInputElement).value ?? element.textContent ?? ''
    await document.fonts.load(`${style.fontWeight} ${style.fontSize} ${style.fontFamily}`, text)
  })
  // The session is left open (it ends with the page): detaching it also undoes the page's network emulation in
  // Chromium 156, and a journey asking while offline was silently back online.
  const cdp = await page.context().newCDPSession(page)
  try {
    await cdp.send('DOM.enable')
    await cdp.send('CSS.enable')
    const { root: document } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true })
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: document.nodeId, selector })
    const below = (at: DomNode) => [...(at.shadowRoots ?? []), ...(at.children ?? [])]
    const find = (at: DomNode): DomNode | undefined =>
      at.nodeId === nodeId
        ? at
        : below(at).reduce<DomNode | undefined>((found, child) => found ?? find(child), undefined)
    const texts = (at: DomNode): number[] => (at.nodeType === 3 ? [at.nodeId] : below(at).flatMap(texts))
    const families = new Set<string>()
    for (const text of texts(find(document as DomNode)!)) {
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId: text })
      for (const font of fonts) families.add(font.familyName)
    }
    return [...families]
  } finally {
    await cdp.send('CSS.disable')
    await cdp.send('DOM.disable')
  }
}

/** Every tappable control on the screen is at least 44 px tall (the smallest a thumb hits reliably). */
export async function expectTouchTargets(page: Page) {
  const small = await page
    .locator('main button:visible, main input:visible:not([type=file]), main select:visible, main .btn:visible')
    .evaluateAll((elements) =>
      elements
        .filter((element) => element.getBoundingClientRect().height < 43.5)
        .map(
          (element) =>
            `${element.tagName} ${element.textContent ?? ''} ${Math.round(element.getBoundingClientRect().height)}`,
        ),
    )
  expect(small).toEqual([])
}

/** Nothing on the page is wider than the viewport (no sideways scrolling at 360 px). */
export async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow).toBeLessThanOrEqual(0)
}

/** The checks every learner screen passes: accessible, thumb-sized controls, no sideways scroll; then a screenshot. */
export async function checkScreen(page: Page, name: string) {
  await expectAccessible(page)
  await expectTouchTargets(page)
  await expectNoSidewaysScroll(page)
  await screenshot(page, name)
}

export const imageRendered = (image: Locator) =>
  image.evaluate((element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth > 0)

/**
 * Saves a screenshot under e2e/.artifacts/screenshots for people to look at, once the web fonts are in
 * (before that, Devanagari shows as boxes: no system font has it). `E2E_SCREENSHOTS=0` (what CI sets) skips them.
 */
export async function screenshot(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS === '0') return
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  const dir = path.join(artifacts, 'screenshots')
  mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true })
}

let phoneCounter = 0
/** A 10-digit phone number unique within this process. */
export function uniquePhone() {
  phoneCounter += 1
  return `98${String(process.pid % 10_000).padStart(4, '0')}${String(phoneCounter).padStart(4, '0')}`
}

/** Digits as the app writes them in `language` (WEB.md): Devanagari in Nepali. */
export const digits = (text: string, language: 'en' | 'ne') =>
  language === 'ne' ? text.replace(/[0-9]/g, (digit) => '०१२३४५६७८९'[Number(digit)]!) : text

/** Devanagari digits back to Latin ones, to read a number the page shows in Nepali. */
export const latinDigits = (text: string) => text.replace(/[०-९]/g, (digit) => String('०१२३४५६७८९'.indexOf(digit)))

/**
 * i18next's {{name}} interpolation, for the few texts with a value in them. A Nepali template (one with Devanagari
 * in it) comes out with Devanagari digits, as the app writes every translated text in Nepali.
 */
export const interpolate = (template: string, values: Record<string, string | number>) => {
  const text = template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]))
  return /[\u0900-\u097F]/.test(template) ? digits(text, 'ne') : text
}

/** The user-perceived characters of `text`. */
export const graphemes = (text: string) =>
  Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (part) => part.segment)

/** The admin of the quiz and results journeys. API.md's rules refuse a password containing the username. */
export const QUIZ_ADMIN = { username: 'admin', password: 'Kathmandu-Exam-77', phone: '9800000001' }
export const QUIZ_LEARNER_PASSWORD = 'Learner-pass-42'

/** A small green square, the picture of an answer option in every journey. */
export const OPTION_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect x="4" y="4" width="32" height="32" fill="#16a34a"/></svg>'

/** The numbered questions of the exam journeys (quiz, exam screen): question n asks which answer is right. */
export const questionText = (question: number, language: 'en' | 'ne') =>
  language === 'en' ? `Question ${question}: which answer is right?` : `प्रश्न ${question}: कुन उत्तर सही हो?`
/** Option `k` (0 for A) of question n. */
export const optionText = (question: number, k: number, language: 'en' | 'ne') =>
  language === 'en' ? `Answer ${'ABCD'[k]} to question ${question}` : `प्रश्न ${question} को उत्तर ${'कखगघ'[k]}`

/**
 * A radio by its option text: the name starts with it (an option image's caption may follow), and "question 1" must
 * not match "question 12".
 */
export const radioName = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`)
