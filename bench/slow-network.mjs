// npm run bench:slow-network: the web app on a slow mobile connection (issue 12), in Chromium through the DevTools
// protocol: 400 kbit/s down and up, 400 ms round trip, the CPU slowed 4x. For each run, a fresh browser context
// (empty cache) opens /login (first visit), opens it again in the same context (repeat visit), then signs in as a
// learner and waits for the dashboard to list the seeded quizzes. Times are the page's own clock (performance.now(),
// from the navigation's start or from the click) at the first frame where the condition holds: the login form is
// visible when its fields and button are laid out on screen (painted from the HTML or by React), and usable when React
// has also attached its handlers to them (rendered or hydrated). BENCH_RUNS (default 3)
// sets the number of runs; CHROMIUM_PATH the browser. Needs the built server and web app (`npm run build`).
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { launchBrowser } from '../e2e/harness.mjs'
import { quizJson, startServer } from './lib.mjs'

const runs = Number(process.env.BENCH_RUNS ?? 3)
const KBIT = 1000 / 8
const network = { offline: false, latency: 400, downloadThroughput: 400 * KBIT, uploadThroughput: 400 * KBIT }
const CPU_SLOWDOWN = 4
const QUIZZES = 3
const PASSWORD = 'Slow-network-1'
const budget = {
  firstVisibleMs: 2000,
  firstUsableMs: 4500,
  repeatUsableMs: 1000,
  dashboardMs: 3000,
  firstScreenJsBytes: 150 * 1024,
}

const webDist = path.resolve(import.meta.dirname, '../web/dist/index.html')
if (!existsSync(webDist)) throw new Error('web/dist is missing: run `npm run build` first')

// Installed in every page before its own scripts run: checks the login form on each animation frame (just before
// the frame is painted) and keeps the first time it was visible and the first time it was usable. A control is
// usable once it is enabled and React has attached its props (handlers) to it: before hydration the built form is
// on screen with its button disabled. Runs in the page (serialized by Playwright), where globalThis is the window.
function watchLoginForm() {
  const { document, performance, requestAnimationFrame } = globalThis
  const times = (globalThis.loginForm = { visibleAt: null, usableAt: null })
  const check = () => {
    const controls = ['#login-username', '#login-password', 'form button[type="submit"]'].map((selector) =>
      document.querySelector(selector),
    )
    const shown = controls.every((el) => el && el.getClientRects().length > 0)
    if (shown && times.visibleAt === null) times.visibleAt = performance.now()
    const handled =
      shown && controls.every((el) => !el.disabled && Object.keys(el).some((key) => key.startsWith('__reactProps$')))
    if (handled) times.usableAt = performance.now()
    else requestAnimationFrame(check)
  }
  requestAnimationFrame(check)
}

function quizzesListedAt(count) {
  const { document, performance } = globalThis
  const listed = document.querySelectorAll('.quiz-grid .quiz-card').length >= count
  return listed ? performance.now() - globalThis.signInClickedAt : false
}

/** Encoded bytes (headers and body as they came over the wire) of each response the page loads, by resource type. */
async function recordTraffic(cdp) {
  const requests = new Map()
  // Chromium may announce a memory-cache hit before the response itself.
  const servedFromCache = new Set()
  cdp.on('Network.requestServedFromCache', ({ requestId }) => servedFromCache.add(requestId))
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    requests.set(requestId, {
      type,
      url: response.url,
      fromCache: response.fromDiskCache || servedFromCache.has(requestId),
      fromServiceWorker: response.fromServiceWorker,
      bytes: 0,
    })
  })
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const request = requests.get(requestId)
    if (request) request.bytes = encodedDataLength
  })
  await cdp.send('Network.enable')
  return {
    /** Totals for the responses recorded since the last call. */
    take() {
      const list = [...requests.values()]
      // BENCH_VERBOSE=1 lists each response: what the first screen waits for, and how big it is.
      if (process.env.BENCH_VERBOSE)
        for (const r of list) console.log(`  ${r.type.padEnd(10)} ${String(r.bytes).padStart(7)} B ${r.url}`)
      requests.clear()
      servedFromCache.clear()
      const sum = (filter) => list.filter(filter).reduce((total, request) => total + request.bytes, 0)
      return {
        bytes: sum(() => true),
        scriptBytes: sum((request) => request.type === 'Script'),
        requests: list.length,
        fromCache: list.filter((request) => request.fromCache).length,
        fromServiceWorker: list.filter((request) => request.fromServiceWorker).length,
      }
    },
  }
}

async function visit(page, url) {
  await page.goto(url, { waitUntil: 'commit' })
  const form = await page.waitForFunction(() => globalThis.loginForm?.usableAt && globalThis.loginForm, undefined, {
    timeout: 120_000,
  })
  const { visibleAt, usableAt } = await form.jsonValue()
  const controlled = await page.evaluate(() => Boolean(navigator.serviceWorker?.controller))
  return { visibleMs: visibleAt, ms: usableAt, controlled }
}

async function oneRun(browser, baseUrl, learner) {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'en-US' })
  try {
    await context.addInitScript(watchLoginForm)
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    const traffic = await recordTraffic(cdp)
    await cdp.send('Network.emulateNetworkConditions', network)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })

    const first = await visit(page, `${baseUrl}/login`)
    const firstTraffic = traffic.take()
    // What the first visit fetches after the form is usable (the Nepali font, the preloaded form code) finishes
    // before the repeat visit, and is counted apart.
    await page.waitForLoadState('networkidle')
    const afterFirstTraffic = traffic.take()

    const repeat = await visit(page, `${baseUrl}/login`)
    const repeatTraffic = traffic.take()

    await page.fill('#login-username', learner)
    await page.fill('#login-password', PASSWORD)
    await page.evaluate(() => {
      globalThis.signInClickedAt = globalThis.performance.now()
      globalThis.document.querySelector('form button[type="submit"]').click()
    })
    const listed = await page.waitForFunction(quizzesListedAt, QUIZZES, { polling: 'raf', timeout: 120_000 })
    const dashboardMs = await listed.jsonValue()
    return {
      first,
      firstTraffic,
      afterFirstTraffic,
      repeat,
      repeatTraffic,
      dashboardMs,
      dashboardTraffic: traffic.take(),
    }
  } finally {
    await context.close()
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
const ms = (value) => `${Math.round(value)} ms`
const verdict = (value, limit) => (value < limit ? 'within' : 'OVER')

const server = await startServer()
const browser = await launchBrowser()
try {
  const admin = await server.seed({
    admin: 'slowadmin',
    phone: '9700000000',
    learners: 1,
    prefix: 'slowlearner',
    password: PASSWORD,
  })
  for (let i = 1; i <= QUIZZES; i++) await server.createQuiz(admin, quizJson(10, `Slow network quiz ${i}`))
  const sizeReport = path.resolve(import.meta.dirname, '../web/dist/size-report.json')
  const built = existsSync(sizeReport) ? JSON.parse(readFileSync(sizeReport, 'utf8')) : null

  console.log(
    `network ${network.downloadThroughput / KBIT} kbit/s down, ${network.uploadThroughput / KBIT} kbit/s up, ` +
      `${network.latency} ms round trip; CPU ${CPU_SLOWDOWN}x slower; Chromium ${browser.version()}; ${runs} runs`,
  )
  const results = []
  for (let i = 0; i < runs; i++) {
    const result = await oneRun(browser, server.baseUrl, 'slowlearner1')
    results.push(result)
    console.log(
      `run ${i + 1}: first visit visible ${ms(result.first.visibleMs)}, usable ${ms(result.first.ms)} ` +
        `(${kb(result.firstTraffic.bytes)}), repeat ${ms(result.repeat.ms)} ` +
        `(${kb(result.repeatTraffic.bytes)}), dashboard after sign-in ${ms(result.dashboardMs)}`,
    )
  }
  const pick = (get) => median(results.map(get))
  const controlled = (get) => (results.some(get) ? `yes (${results.filter(get).length} of ${runs})` : 'no')
  const row = (measure, median, { range = '', limit, show = ms } = {}) => ({
    measure,
    median: show(median),
    range,
    budget: limit === undefined ? '' : `< ${show(limit)}`,
    verdict: limit === undefined ? '' : verdict(median, limit),
  })
  const timeRow = (measure, get, limit) => {
    const times = results.map(get)
    return row(measure, median(times), { range: `${ms(Math.min(...times))} – ${ms(Math.max(...times))}`, limit })
  }
  const bytesRow = (measure, get, range, limit) => row(measure, pick(get), { range, limit, show: kb })
  const rows = [
    timeRow('first visit: login form visible', (r) => r.first.visibleMs, budget.firstVisibleMs),
    timeRow('first visit: login form usable', (r) => r.first.ms, budget.firstUsableMs),
    bytesRow(
      'first visit: bytes transferred until usable',
      (r) => r.firstTraffic.bytes,
      `${pick((r) => r.firstTraffic.requests)} requests`,
    ),
    bytesRow(
      'first visit: fetched after the form was usable',
      (r) => r.afterFirstTraffic.bytes,
      `${pick((r) => r.afterFirstTraffic.requests)} requests`,
    ),
    bytesRow(
      'first visit: JavaScript transferred',
      (r) => r.firstTraffic.scriptBytes,
      built ? `build report: ${kb(built.screens['/login (visitor)'].brotli)} brotli` : '',
      budget.firstScreenJsBytes,
    ),
    timeRow('repeat visit: login form usable', (r) => r.repeat.ms, budget.repeatUsableMs),
    bytesRow(
      'repeat visit: bytes transferred',
      (r) => r.repeatTraffic.bytes,
      `${pick((r) => r.repeatTraffic.fromCache)} of ${pick((r) => r.repeatTraffic.requests)} from cache`,
    ),
    timeRow('sign in -> dashboard lists quizzes', (r) => r.dashboardMs, budget.dashboardMs),
    {
      measure: 'service worker controlled the page',
      median: `first ${controlled((r) => r.first.controlled)}, repeat ${controlled((r) => r.repeat.controlled)}`,
      range: '',
      budget: '',
      verdict: '',
    },
  ]
  console.table(rows)
} finally {
  await browser.close()
  await server.stop()
}
