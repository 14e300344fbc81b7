import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { photographNonSheet, photographSheet, type PhotoSpec } from '../server/test/fixtures/sheet-photos'
import neDashboard from '../web/src/i18n/locales/ne/dashboard.json'
import neNav from '../web/src/i18n/locales/ne/nav.json'
import neResults from '../web/src/i18n/locales/ne/results.json'
import neSections from '../web/src/i18n/locales/ne/sections.json'
import { formatDate } from '../web/src/lib/format'
import { cameraShutter, launchWithFakeCamera } from './fake-camera'
import {
  DESKTOP,
  PHONE,
  artifacts,
  createAdmin,
  createQuiz,
  expectAccessible,
  expectNoSidewaysScroll,
  imageRendered,
  interpolate,
  screenshot,
  setUpJourney,
  signIn,
  waitForHeading,
} from './fixtures'

// Issue 45 against the real server: an admin creates a paper sitting, pastes its roster, prints the papers and the
// answer sheets (looked at as PDF pages), scans a filled sheet with a phone's camera at 360 px (Chromium's fake
// camera showing a photo of it), uploads three photos (one unreadable, one needing review) and settles the review.
// Then the learner whose sheet the camera read finds the result, the report and the photo of the sheet, in Nepali.

const ADMIN = { username: 'hallteacher', password: 'Kathmandu-Sheets-77' }
const PASSWORD = 'Learner-pass-42'
const QUESTIONS = 6

const QUIZ = {
  title: { en: 'Loksewa mock 12', ne: 'लोकसेवा नमुना १२' },
  duration_minutes: 30,
  allowed_attempts: 1,
  questions: Array.from({ length: QUESTIONS }, (_, index) => ({
    text: { en: `Which river is number ${index + 1}?`, ne: `नदी नम्बर ${index + 1} कुन हो?` },
    options: ['Koshi', 'Gandaki', 'Karnali', 'Mahakali'].map((name, option) => ({
      text: { en: name, ne: ['कोशी', 'गण्डकी', 'कर्णाली', 'महाकाली'][option]! },
      is_correct: option === 0,
    })),
  })),
}

const journey = setUpJourney()
const out = path.join(artifacts, 'sittings')
let adminToken = ''
let quizId = 0
let sittingId = 0

interface Layout {
  questions: { number: number; options: { label: string; x_mm: number; y_mm: number; r_mm: number }[] }[]
}

const photoSpec: PhotoSpec = {
  seed: 11,
  megapixels: 3,
  fill: 0.8,
  tiltDeg: 6,
  rotation: 0,
  smallAngleDeg: 3,
  light: 'even',
  blurSigma: 0,
  jpegQuality: 85,
}

/** A photo of roll `roll`'s sheet as the server prints it, with pen marks: `choices[i]` the options of question i+1. */
async function filledSheetPhoto(
  roll: number,
  choices: number[][],
  seed: number,
  photo: Partial<PhotoSpec> = {},
): Promise<Buffer> {
  const { server } = journey
  const svg = await (
    await fetch(`${server.baseUrl}/api/admin/sittings/${sittingId}/sheets/${roll}.svg`, {
      headers: { authorization: `Bearer ${adminToken}` },
    })
  ).text()
  const roster = await server.api<{ roster: { roll_number: number; set: string }[] }>(
    'GET',
    `/api/admin/sittings/${sittingId}/roster/`,
    undefined,
    adminToken,
  )
  const set = roster.body.roster.find((entry) => entry.roll_number === roll)!.set
  const layout = await server.api<Layout>(
    'GET',
    `/api/admin/sittings/${sittingId}/sheet-layout/?set=${set}`,
    undefined,
    adminToken,
  )
  const marks = choices
    .flatMap((options, question) => options.map((option) => layout.body.questions[question]!.options[option]!))
    .map((bubble) => `<circle cx="${bubble.x_mm}" cy="${bubble.y_mm}" r="${bubble.r_mm * 0.9}" fill="#1a1a1a"/>`)
    .join('')
  return photographSheet(svg.replace(/<\/svg>\s*$/, `${marks}</svg>`), { ...photoSpec, seed, ...photo })
}

interface ScanClock {
  shutterAt: number
  shownAt: number
}

/**
 * Times the next scan by the page's own clock (the test's would add DevTools round trips, long on a busy machine):
 * from the next click (the shutter) to `shownText` appearing in the scan's result.
 */
async function startScanClock(page: Page, shownText: string) {
  await page.evaluate((text) => {
    const clock = window as unknown as ScanClock
    document.addEventListener('click', () => (clock.shutterAt = performance.now()), { capture: true, once: true })
    new MutationObserver((_, observer) => {
      if (!document.querySelector('.scan-result')?.textContent?.includes(text)) return
      clock.shownAt = performance.now()
      observer.disconnect()
    }).observe(document.body, { subtree: true, childList: true, characterData: true })
  }, shownText)
}

/** The scan's time in ms: in all, before its upload started (photo taken and shrunk), the upload, and after it. */
function readScanClock(page: Page) {
  return page.evaluate(() => {
    const { shutterAt, shownAt } = window as unknown as ScanClock
    const upload = performance
      .getEntriesByType('resource')
      .find((entry) => entry.name.includes('/pages/') && entry.startTime > shutterAt) as PerformanceResourceTiming
    const ms = (value: number) => Math.round(value)
    return {
      total: ms(shownAt - shutterAt),
      device: ms(upload.startTime - shutterAt),
      request: ms(upload.responseEnd - upload.startTime),
      render: ms(shownAt - upload.responseEnd),
    }
  })
}

/** Prints the page as Chromium's print would and turns its first pages into PNGs to look at. */
async function printToPngs(page: Page, name: string) {
  mkdirSync(out, { recursive: true })
  const pdf = path.join(out, `${name}.pdf`)
  await page.emulateMedia({ media: 'print' })
  writeFileSync(pdf, await page.pdf({ preferCSSPageSize: true, printBackground: true }))
  await page.emulateMedia({ media: 'screen' })
  if (existsSync('/usr/bin/pdftoppm'))
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '3', pdf, path.join(out, name)])
  const pages = execFileSync('/usr/bin/pdfinfo', [pdf], { encoding: 'utf8' }).match(/Pages:\s+(\d+)/)?.[1]
  const size = execFileSync('/usr/bin/pdfinfo', [pdf], { encoding: 'utf8' }).match(/Page size:\s+([^\n]+)/)?.[1]
  return { pages: Number(pages), size: size ?? '' }
}

beforeAll(async () => {
  const { server } = journey
  adminToken = await createAdmin(server, ADMIN)
  server.cli('create-learners', ['--count', '3', '--prefix', 'hall', '--password', PASSWORD])
  quizId = await createQuiz(server, adminToken, QUIZ)
})

describe('paper sittings', () => {
  it('an admin creates a sitting, pastes a roster and prints the papers and the answer sheets', async () => {
    const page = await journey.open({ user: ADMIN, viewport: DESKTOP })
    await page.goto(`/admin/quiz/${quizId}/sittings`)
    await waitForHeading(page, 'Loksewa mock 12: paper sittings')
    await page.getByLabel('Date and time').fill('2026-12-01T10:00')
    await page.getByLabel('Title (English, optional)').fill('Putalisadak hall')
    await page.getByLabel('Sets').selectOption('2')
    await page.getByRole('button', { name: 'Create sitting' }).click()
    await page.getByText('Sitting created. Open it to add its roster.').waitFor()
    await page.getByRole('link', { name: 'Putalisadak hall' }).click()
    await waitForHeading(page, 'Sitting: Putalisadak hall')
    sittingId = Number(/\/admin\/sittings\/(\d+)/.exec(page.url())![1])

    await page.getByLabel('Paste learners').fill('hall1\nhall2\nnobody\nhall3')
    await page.getByRole('button', { name: 'Add to roster' }).click()
    await page.getByRole('button', { name: 'Save roster' }).click()
    await expect.poll(() => page.getByLabel('Username or phone, line 3').getAttribute('aria-invalid')).toBe('true')
    await page.getByText('No learner has the username "nobody".').waitFor()
    await page.getByRole('button', { name: 'Remove line 3 (nobody)' }).click()
    await page.getByRole('button', { name: 'Save roster' }).click()
    await page.getByText('Roster saved. Blank roll numbers and sets were given in order.').waitFor()
    expect(await page.getByLabel('Roll number, line 3').inputValue()).toBe('3')
    expect(await page.getByLabel('Set, line 2').inputValue()).toBe('B')
    await screenshot(page, 'sittings-sitting-desktop-en')

    await page.getByRole('link', { name: 'Print question papers' }).click()
    await page.getByRole('article', { name: 'Booklet, set A' }).waitFor()
    await screenshot(page, 'sittings-paper-desktop-en')
    const booklet = await printToPngs(page, 'paper-set-A')
    expect(booklet.size).toContain('(A4)')
    await page.goto(`/admin/sittings/${sittingId}/print/sheets`)
    await page.getByLabel('Blank sheets').fill('2')
    await page.getByText('5 sheets ready to print.').waitFor()
    await expect.poll(() => page.locator('.sheets__image').count()).toBe(5)
    const sheets = await printToPngs(page, 'answer-sheets')
    expect(sheets.pages).toBe(5)
    expect(sheets.size).toContain('(A4)')
  })

  describe('with the phone camera', () => {
    let browser: Browser
    beforeAll(async () => {
      const photo = await filledSheetPhoto(1, [[0], [0], [0], [1], [0], [0]], 21)
      browser = await launchWithFakeCamera(photo, path.join(out, 'sheet-roll-1.mjpeg'))
    })
    afterAll(() => browser?.close())

    it("scans a sheet on a 360 px phone and sees the learner's score", async () => {
      const context = await browser.newContext({ baseURL: journey.server.baseUrl, viewport: PHONE, locale: 'en-US' })
      const page = await context.newPage()
      page.setDefaultTimeout(20_000)
      await signIn(page, journey.server, ADMIN.username, ADMIN.password)
      await page.goto(`/admin/sittings/${sittingId}/scan`)
      await waitForHeading(page, 'Scan sheets: Putalisadak hall')
      await page.getByText('0 of 3 sheets scanned.').waitFor()
      const shutter = await cameraShutter(page)
      await screenshot(page, 'sittings-scan-phone-en')
      const frame = await page
        .locator('video')
        .evaluate((video: HTMLVideoElement) => [video.videoWidth, video.videoHeight])
      const upload = page.waitForRequest((request) => request.method() === 'POST' && request.url().includes('/pages/'))
      await startScanClock(page, 'Recorded')
      await shutter.click()
      const result = page.getByRole('status').filter({ hasText: 'Recorded' })
      await result.waitFor({ timeout: 30_000 })
      // WEB.md's "within 2 s" of the shutter, printed for docs/performance.md and never asserted (a shared machine).
      const time = await readScanClock(page)
      // Playwright cannot read a multipart body built from a Blob; Chromium's Content-Length is its size.
      const sent = Number((await (await upload).allHeaders())['content-length'] ?? 0)
      console.log(
        `scan to result: ${time.total} ms from the shutter to the result shown (on the phone ${time.device} ms, ` +
          `upload and read ${time.request} ms, on screen ${time.render} ms; a ${frame.join('x')} camera frame, ` +
          `${(sent / 1024).toFixed(0)} KB uploaded)`,
      )
      // 5 right, 1 wrong (the quiz's default marks: +1, -0.2... or as the paper says): the name and roll are what matter.
      await expect.poll(() => result.textContent()).toContain('Roll 1, set A')
      await page.getByText('1 of 3 sheets scanned.').waitFor()
      await expectNoSidewaysScroll(page)
      await screenshot(page, 'sittings-scan-result-phone-en')
      await context.close()
    })
  })

  it('uploads three photos, one unreadable and one needing review, and settles the review', async () => {
    const clean = await filledSheetPhoto(2, [[0], [0], [0], [0], [0], [0]], 31)
    // Photographed sideways, as a teacher holding the phone across the sheet does.
    const double = await filledSheetPhoto(3, [[0, 2], [0], [0], [0], [0], [0]], 32, { rotation: 90 })
    const unreadable = await photographNonSheet(33, 2)
    const page = await journey.open({ user: ADMIN, viewport: PHONE, language: 'ne' })
    await page.goto(`/admin/sittings/${sittingId}/scan`)
    await page.getByLabel('उत्तरपुस्तिका वा लिखित पुस्तिकाका पानाका फोटोहरू (एकैपटक धेरै)').setInputFiles([
      { name: 'roll-2.jpg', mimeType: 'image/jpeg', buffer: clean },
      { name: 'roll-3.jpg', mimeType: 'image/jpeg', buffer: double },
      { name: 'table.jpg', mimeType: 'image/jpeg', buffer: unreadable },
    ])
    await page.getByText('३ मध्ये ३ फोटो पढिए।').waitFor({ timeout: 60_000 })
    const item = (name: string) => page.locator('.scan-uploads__item').filter({ hasText: name })
    await expect.poll(() => item('roll-2.jpg').textContent()).toContain('रेकर्ड भयो')
    await expect.poll(() => item('roll-3.jpg').textContent()).toContain('जाँच आवश्यक')
    await expect.poll(() => item('table.jpg').textContent()).toContain('फेरि फोटो खिच्नुहोस्।')
    await screenshot(page, 'sittings-upload-phone-ne')

    await page.goto(`/admin/sittings/${sittingId}/review`)
    const card = page.locator('.review-card').first()
    await card.locator('img').first().waitFor()
    // Question 1's row, doubly marked, outlined on the photo and enlarged beside its choices, turned to read left to
    // right though the sheet lies sideways in the photo.
    const crop = card.getByRole('img', { name: 'फोटोमा प्रश्न १ को पङ्क्ति' })
    await crop.waitFor()
    await expect.poll(() => crop.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    const closeUp = (await crop.locator('..').boundingBox())!
    expect(closeUp.width).toBeGreaterThan(200)
    expect(closeUp.height).toBeGreaterThan(30)
    expect(closeUp.width).toBeGreaterThan(closeUp.height * 1.5)
    expect(await crop.evaluate((img) => img.parentElement!.style.transform)).toContain('rotate(-90deg)')
    expect(await card.locator('.review-photo .review-mark').count()).toBe(1)
    await screenshot(page, 'sittings-review-flagged-phone-ne')
    await card.getByRole('radio', { name: 'A', exact: true }).check()
    await card.getByRole('button', { name: 'निर्णय गरी रेकर्ड गर्नुहोस्' }).click()
    await page.waitForTimeout(1500)
    await screenshot(page, 'sittings-review-settled-phone-ne')
    await page.getByText(/रेकर्ड भयो: /).waitFor()
    await page.getByText('जाँच्नुपर्ने कुनै उत्तरपुस्तिका छैन।').waitFor()
    await expectNoSidewaysScroll(page)
  })

  it('every screen at 360 px and at desktop size, in both languages, with no sideways scroll', async () => {
    const screens = {
      list: `/admin/quiz/${quizId}/sittings`,
      sitting: `/admin/sittings/${sittingId}`,
      paper: `/admin/sittings/${sittingId}/print/paper`,
      sheets: `/admin/sittings/${sittingId}/print/sheets`,
      scan: `/admin/sittings/${sittingId}/scan`,
      review: `/admin/sittings/${sittingId}/review`,
    }
    for (const language of ['en', 'ne'] as const) {
      for (const [size, viewport] of [
        ['phone', PHONE],
        ['desktop', DESKTOP],
      ] as const) {
        const page = await journey.open({ user: ADMIN, viewport, language })
        for (const [name, url] of Object.entries(screens)) {
          await page.goto(url)
          await page.locator('h1').waitFor()
          await page.waitForLoadState('networkidle')
          await screenshot(page, `sittings-${name}-${size}-${language}`)
          const wide = await page.evaluate(() =>
            [...document.querySelectorAll('body *')]
              // A table scrolls in its own box, and a close-up's photo is clipped by its own.
              .filter((element) => !element.closest('.admin-table-wrap, .review-crop'))
              .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
              .slice(0, 5)
              .map((element) => `${element.tagName}.${element.className}`),
          )
          expect(wide, `${name} ${size} ${language}`).toEqual([])
          await expectNoSidewaysScroll(page)
        }
        await page.context().close()
      }
    }
  })

  it("the scanned learner sees the paper result, its report and the sheet's photo, in Nepali, on a 360 px phone", async () => {
    // Roll 1 is hall1, whose sheet the camera journey read: questions 1-3, 5 and 6 right (A), question 4 B (wrong).
    const sitting = await journey.server.api<{ held_at: string }>(
      'GET',
      `/api/admin/sittings/${sittingId}/`,
      undefined,
      adminToken,
    )
    expect(sitting.status).toBe(200)
    // The sitting's day as the app's Bikram Sambat formatter writes it: the paper attempt carries the sitting's date,
    // not the day its sheet was scanned.
    const satOn = formatDate(sitting.body.held_at, 'ne')
    expect(satOn).toMatch(/^[०-९]{4} \S+ [०-९]{1,2}$/)
    const title = QUIZ.title.ne
    const score = interpolate(neSections.report.total_score, { score: '4.80', max: 6 })

    const page = await journey.open({ user: { username: 'hall1', password: PASSWORD }, viewport: PHONE })
    await page.goto('/')
    await waitForHeading(page, 'Available Quizzes')
    await page.getByRole('main').getByRole('group').getByRole('button', { name: 'नेपाली' }).click()
    await waitForHeading(page, neDashboard.title)
    const paper = page.getByRole('region', { name: neDashboard.paper_results.title })
    const row = paper.getByRole('listitem')
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.locator('.badge--paper').textContent()).toBe(neDashboard.paper_results.on_paper)
    expect(await row.locator('time').textContent()).toBe(satOn)
    expect(await row.textContent()).toContain(title)
    expect(await row.textContent()).toContain(interpolate(neDashboard.paper_results.score, { score: '4.80' }))
    const report = row.getByRole('link', { name: neDashboard.paper_results.view_report })
    expect((await report.boundingBox())!.height).toBeGreaterThanOrEqual(43.5)
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'sittings-learner-dashboard-phone-ne')

    await page.getByRole('link', { name: neNav.my_results, exact: true }).click()
    await waitForHeading(page, neResults.title)
    await page.getByRole('button', { name: new RegExp(title) }).click()
    const attempts = page.getByRole('dialog', { name: title })
    const attempt = attempts.getByRole('listitem')
    await expect.poll(() => attempt.count()).toBe(1)
    expect(await attempt.locator('.badge--paper').textContent()).toBe(neResults.on_paper)
    expect(await attempt.locator('time').textContent()).toBe(satOn)
    expect(await attempt.textContent()).toContain(`${neResults.sat_on}: ${satOn}`)
    expect(await attempt.locator('.attempts__score').textContent()).toBe('४.८०')
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'sittings-learner-results-phone-ne')

    await attempts.getByRole('link', { name: interpolate(neResults.view_report_for, { number: 1 }) }).click()
    await waitForHeading(page, title)
    expect(await page.locator('.report-summary__value').textContent()).toBe(score)
    expect(await page.locator('.report-summary time').textContent()).toBe(satOn)
    expect(await page.locator('.report-summary .badge--paper').textContent()).toBe(neResults.on_paper)
    const statuses = await page.locator('.analysis__row .badge:last-child').allTextContents()
    const { correct, incorrect } = neResults.status
    expect(statuses).toEqual([correct, correct, correct, incorrect, correct, correct])
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'sittings-learner-report-phone-ne')

    // The paper attempt's answer to question 4: Gandaki chosen, Koshi right.
    await page.locator('.analysis__row').nth(3).click()
    const detail = page.getByRole('dialog', { name: interpolate(neResults.detail.title, { number: 4 }) })
    await detail.waitFor()
    const option = (name: string) => detail.locator('.report-option').filter({ hasText: name })
    expect(await option('गण्डकी').locator('.tag').allTextContents()).toEqual([neResults.detail.your_answer])
    expect(await option('कोशी').locator('.tag').allTextContents()).toEqual([neResults.detail.correct_answer])
    await screenshot(page, 'sittings-learner-answer-phone-ne')
    await page.keyboard.press('Escape')
    await detail.waitFor({ state: 'detached' })

    await page.getByRole('button', { name: neResults.sheet.open }).click()
    const sheet = page.getByRole('dialog', { name: neResults.sheet.title })
    const photo = sheet.getByRole('img', { name: neResults.sheet.alt })
    await photo.waitFor()
    await expect.poll(() => imageRendered(photo)).toBe(true)
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'sittings-learner-sheet-phone-ne')
    // Zoomed in, the photo is wider than the dialog and scrolls inside it, not the page sideways.
    await sheet.getByRole('button', { name: neResults.sheet.zoom }).click()
    const zoomed = sheet.getByRole('group', { name: neResults.sheet.zoomed })
    await expect.poll(() => zoomed.evaluate((block) => block.scrollWidth > 2 * block.clientWidth)).toBe(true)
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'sittings-learner-sheet-zoomed-phone-ne')
  })
})
