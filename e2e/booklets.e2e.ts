import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drawMark, photographSheet, seededRandom, type MarkStyle } from '../server/test/fixtures/sheet-photos'
import enMarking from '../web/src/i18n/locales/en/marking.json'
import enWritten from '../web/src/i18n/locales/en/written.json'
import neSittings from '../web/src/i18n/locales/ne/sittings.json'
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
  newPage,
  screenshot,
  setUpJourney,
  signIn,
  waitForHeading,
} from './fixtures'
import { makeMarker, openAnswer, penStroke, putRubric, saveAnswer } from './marking-screen'

// Issue 58 against the real server, from paper to the learner's report: a written sitting's answer booklets printed
// (looked at as PDF pages); roll 1's first page photographed with a 360 px phone's camera (Chromium's fake camera
// showing a photo of it) and roll 2's uploaded, its question bubble too faint to trust and settled in "Review"; a
// page with no bubble filled discarded, in Nepali; both answers marked by keyboard on the marking screen; the marks
// released; and roll 1's learner reading the marks drawn on their own booklet page.

const ADMIN = { username: 'bookletteacher', password: 'Kathmandu-Booklets-77' }
const MARKER = { username: 'penmarker1', password: 'Marker-pass-42' }
const PASSWORD = 'Learner-pass-42'

const written = (en: string, ne: string) => ({
  type: 'written',
  text: { en, ne },
  topic: 'Constitution',
  marks: 10,
  word_limit: 300,
  model_answer: { en: 'An answer a marker compares with.', ne: '' },
})
const QUIZ = {
  title: { en: 'Section Officer written mock', ne: 'शाखा अधिकृत लिखित नमुना' },
  duration_minutes: 90,
  allowed_attempts: 1,
  questions: [
    written('Explain the role of the Public Service Commission.', 'लोक सेवा आयोगको भूमिका व्याख्या गर्नुहोस्।'),
    written('Describe the budget cycle of Nepal.', 'नेपालको बजेट चक्र वर्णन गर्नुहोस्।'),
  ],
}

const journey = setUpJourney()
const out = path.join(artifacts, 'booklets')
let adminToken = ''
let quizId = 0
let sittingId = 0
/** The written questions' ids, by the number the paper prints them at. */
let questionIds: number[] = []

interface BookletLayout {
  questions: { number: number; x_mm: number; y_mm: number; r_mm: number }[]
}

/** A phone photo of roll `roll`'s booklet page as the server prints it, its question bubbles filled as told. */
async function filledPagePhoto(roll: number, pageNumber: number, marks: [number, MarkStyle][], seed: number) {
  const { server } = journey
  const svg = await (
    await fetch(`${server.baseUrl}/api/admin/sittings/${sittingId}/booklets/${roll}.svg?page=${pageNumber}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    })
  ).text()
  const layout = await server.api<BookletLayout>(
    'GET',
    `/api/admin/sittings/${sittingId}/booklet-layout/?set=A`,
    undefined,
    adminToken,
  )
  const random = seededRandom(seed)
  const overlay = marks
    .map(([number, style]) => {
      const bubble = layout.body.questions.find((question) => question.number === number)!
      return drawMark(random, bubble.x_mm, bubble.y_mm, bubble.r_mm, style)
    })
    .join('')
  return photographSheet(svg.replace(/<\/svg>\s*$/, `${overlay}</svg>`), {
    seed,
    megapixels: 3,
    fill: 0.8,
    tiltDeg: 5,
    rotation: 0,
    smallAngleDeg: 2,
    light: 'even',
    blurSigma: 0,
    jpegQuality: 85,
  })
}

/** Prints the page as Chromium's print would; its page count and size, and its first pages as PNGs to look at. */
async function printToPngs(page: Page, name: string) {
  mkdirSync(out, { recursive: true })
  const pdf = path.join(out, `${name}.pdf`)
  await page.emulateMedia({ media: 'print' })
  // The Nepali instructions take the app's Devanagari web font, fetched once they are on the page.
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  writeFileSync(pdf, await page.pdf({ preferCSSPageSize: true, printBackground: true }))
  await page.emulateMedia({ media: 'screen' })
  if (existsSync('/usr/bin/pdftoppm'))
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '2', pdf, path.join(out, name)])
  const info = execFileSync('/usr/bin/pdfinfo', [pdf], { encoding: 'utf8' })
  return { pages: Number(/Pages:\s+(\d+)/.exec(info)?.[1]), size: /Page size:\s+([^\n]+)/.exec(info)?.[1] ?? '' }
}

beforeAll(async () => {
  const { server } = journey
  adminToken = await createAdmin(server, ADMIN)
  server.cli('create-learners', ['--count', '2', '--prefix', 'pen', '--password', PASSWORD])
  server.cli('create-learners', ['--count', '1', '--prefix', 'penmarker', '--password', MARKER.password])
  await makeMarker(server, adminToken, MARKER.username)
  quizId = await createQuiz(server, adminToken, QUIZ)
  const quiz = await server.api<{ questions: { id: number }[] }>(
    'GET',
    `/api/admin/quizzes/${quizId}/`,
    undefined,
    adminToken,
  )
  questionIds = quiz.body.questions.map((question) => question.id)
  for (const questionId of questionIds) await putRubric(server, adminToken, questionId)
  const sitting = await server.api<{ id: number }>(
    'POST',
    `/api/admin/quizzes/${quizId}/sittings/`,
    { held_at: '2026-12-05T04:15:00.000Z', title: { en: 'Written hall', ne: 'लिखित हल' }, booklet_pages: 2 },
    adminToken,
  )
  expect(sitting.status).toBe(201)
  sittingId = sitting.body.id
  const roster = await server.api(
    'PUT',
    `/api/admin/sittings/${sittingId}/roster/`,
    { learners: [{ username: 'pen1' }, { username: 'pen2' }] },
    adminToken,
  )
  expect(roster.status).toBe(200)
})

describe('written answers on paper', () => {
  it("prints each learner's answer booklet at A4 from the sitting's print screen", async () => {
    const page = await journey.open({ user: ADMIN, viewport: DESKTOP })
    await page.goto(`/admin/sittings/${sittingId}`)
    await waitForHeading(page, 'Sitting: Written hall')
    await page.getByText('2 pages a learner, for the written questions.').waitFor()
    await page.getByRole('link', { name: 'Print answer booklets' }).click()
    await waitForHeading(page, 'Answer booklets: Written hall')
    await page.getByText('4 pages ready to print.').waitFor()
    await expect.poll(() => page.locator('.sheets__image').count()).toBe(4)
    await expectAccessible(page)
    await screenshot(page, 'booklets-print-desktop-en')
    const booklets = await printToPngs(page, 'answer-booklets')
    expect(booklets.pages).toBe(4)
    expect(booklets.size).toContain('(A4)')
  })

  describe('with the phone camera', () => {
    let browser: Browser
    beforeAll(async () => {
      const photo = await filledPagePhoto(1, 1, [[1, 'pen']], 41)
      browser = await launchWithFakeCamera(photo, path.join(out, 'pen1-page1.mjpeg'))
    })
    afterAll(() => browser?.close())

    it("photographs roll 1's first page on a 360 px phone: recorded for question 1", async () => {
      const { context, page } = await newPage(browser, journey.server, { viewport: PHONE })
      await signIn(page, journey.server, ADMIN.username, ADMIN.password)
      await page.goto(`/admin/sittings/${sittingId}/scan`)
      await waitForHeading(page, 'Scan sheets: Written hall')
      const shutter = await cameraShutter(page)
      await shutter.click()
      const result = page.getByRole('status').filter({ hasText: 'Booklet page recorded' })
      await result.waitFor({ timeout: 30_000 })
      expect(await result.textContent()).toContain('Roll 1 · page 1 · question 1')
      await expectNoSidewaysScroll(page)
      await screenshot(page, 'booklets-camera-phone-en')
      await context.close()
    })
  })

  it('uploads roll 2\'s page through "Scan sheets", and settles its unclear question bubbles in review', async () => {
    const faint = await filledPagePhoto(2, 1, [[2, 'light']], 42)
    const page = await journey.open({ user: ADMIN, viewport: PHONE })
    await page.goto(`/admin/sittings/${sittingId}/scan`)
    await page
      .getByLabel('Photos of answer sheets or booklet pages (many at once)')
      .setInputFiles([{ name: 'pen2-page1.jpg', mimeType: 'image/jpeg', buffer: faint }])
    await page.getByText('1 of 1 photos read.').waitFor({ timeout: 60_000 })
    const item = page.locator('.scan-uploads__item').filter({ hasText: 'pen2-page1.jpg' })
    await expect.poll(() => item.textContent()).toContain('Booklet page needs review')
    expect(await item.textContent()).toContain('The question-number bubbles are unclear')
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'booklets-scan-phone-en')

    await page.goto(`/admin/sittings/${sittingId}/review`)
    const card = page.locator('.review-card').filter({ hasText: 'page 1' })
    const photo = card.getByRole('img', { name: /Photo of the answer booklet page, roll 2/ })
    await photo.waitFor()
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    // The bubble row outlined on the photo.
    expect(await card.locator('.review-photo .review-mark').count()).toBe(1)
    await card.getByRole('img', { name: 'The question-number bubbles on the photo' }).waitFor()
    const questions = card.getByRole('group', { name: /Questions this page answers/ })
    await questions.getByRole('checkbox', { name: '2', exact: true }).waitFor()
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'booklets-review-phone-en')
    await questions.getByRole('checkbox', { name: '2', exact: true }).check()
    await card.getByRole('button', { name: 'Settle and record' }).click()
    await page.getByText(/Recorded: .*Roll 2 · page 1 · question 2\./).waitFor()

    const pages = await journey.server.api<{ results: { status: string; roll_number: number; questions: number[] }[] }>(
      'GET',
      `/api/admin/sittings/${sittingId}/pages/`,
      undefined,
      adminToken,
    )
    expect(
      pages.body.results.map(({ status, roll_number, questions }) => ({ status, roll_number, questions })),
    ).toEqual(
      expect.arrayContaining([
        { status: 'recorded', roll_number: 1, questions: [1] },
        { status: 'recorded', roll_number: 2, questions: [2] },
      ]),
    )
  })

  it('in Nepali at 360 px: a page with no bubble filled waits in review, and is discarded', async () => {
    const none = await filledPagePhoto(1, 2, [], 43)
    const page = await journey.open({ user: ADMIN, viewport: PHONE, language: 'ne' })
    await page.goto(`/admin/sittings/${sittingId}/scan`)
    await page
      .getByLabel(neSittings.scan.upload_label)
      .setInputFiles([{ name: 'pen1-page2.jpg', mimeType: 'image/jpeg', buffer: none }])
    const item = page.locator('.scan-uploads__item').filter({ hasText: 'pen1-page2.jpg' })
    await expect.poll(() => item.textContent(), { timeout: 60_000 }).toContain(neSittings.outcome.page_needs_review)
    expect(await item.textContent()).toContain(neSittings.page_flags.no_question)
    await page.getByRole('link', { name: interpolate(neSittings.scan.to_review, { n: '१' }) }).click()
    const card = page.locator('.review-card').filter({ hasText: 'पाना २' })
    await card.getByRole('img', { name: /लिखित उत्तरपुस्तिकाको पानाको फोटो, रोल १/ }).waitFor()
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'booklets-review-phone-ne')
    await card.getByRole('button', { name: neSittings.review.discard_page }).click()
    await page.getByText(neSittings.review.page_discarded).waitFor()
    const pages = await journey.server.api<{ count: number }>(
      'GET',
      `/api/admin/sittings/${sittingId}/pages/?status=discarded`,
      undefined,
      adminToken,
    )
    expect(pages.body.count).toBe(1)
  })
  it('a marker marks both answers by keyboard on the marking screen, each a booklet page', async () => {
    const page = await journey.open({ user: MARKER, viewport: DESKTOP })
    await page.goto(`/marking/quiz/${quizId}`)
    for (const number of [1, 2]) {
      await page.getByRole('link', { name: interpolate(enMarking.overview.mark_question, { number }) }).click()
      const code = await openAnswer(page)
      // The one page to mark is the booklet page's answer part, cut from the scan's photo (decision 089).
      expect(await page.locator('.page-marker img').count()).toBe(1)
      if (number === 1) {
        await expectAccessible(page)
        await screenshot(page, 'booklets-marking-desktop-en')
      }
      await page.keyboard.press('1')
      await page.keyboard.press('2')
      await page.getByText('Total 7 of 10').waitFor()
      await page.keyboard.press('t')
      await penStroke(page)
      await saveAnswer(page, code)
      await waitForHeading(page, enMarking.screen.all_marked)
      await page.getByRole('link', { name: enMarking.screen.back_to_overview }).click()
    }
  })

  it('the admin releases the marks from the quiz’s Marking tab', async () => {
    const page = await journey.open({ user: ADMIN, viewport: DESKTOP })
    await page.goto(`/admin/quiz/${quizId}/marking`)
    await page.getByRole('table').waitFor()
    await page.getByRole('button', { name: enMarking.overview.release }).click()
    const dialog = page.getByRole('dialog', { name: enMarking.overview.release_title })
    await dialog.getByRole('button', { name: enMarking.overview.release_confirm }).click()
    await page.getByText(/answers? released\./).waitFor()
    await screenshot(page, 'booklets-released-desktop-en')
  })

  it('roll 1’s learner opens the report from the notice and sees the marks drawn on their booklet page', async () => {
    const page = await journey.open({ user: { username: 'pen1', password: PASSWORD }, viewport: PHONE })
    await page.goto('/notifications')
    const notice = page.locator('.notification').filter({ hasText: 'have been marked' })
    await notice.getByRole('link', { name: 'Open' }).click()
    await page.waitForURL('**/results/*')
    const article = page.getByRole('article', { name: interpolate(enWritten.heading, { number: 1 }) })
    await article.getByText('7 of 10').waitFor()
    const sheet = article.locator('.annotated-page').first()
    await expect.poll(() => imageRendered(sheet.locator('img'))).toBe(true)
    // The tick and the stroke are paths; the two items applied are circles labelled with their points.
    expect(await sheet.locator('svg path').count()).toBeGreaterThanOrEqual(2)
    expect(await sheet.locator('svg circle').count()).toBe(2)
    expect(await sheet.locator('svg text').allTextContents()).toEqual(expect.arrayContaining(['+3', '+4']))
    // Question 2 was not on roll 1's pages: released as unanswered, not waiting.
    const second = page.getByRole('article', { name: interpolate(enWritten.heading, { number: 2 }) })
    await second.getByText('0 of 10').waitFor()
    // A paper of written questions alone: the headline counts their marks (it read "7.00 of 0").
    expect(await page.locator('.report-summary__value').textContent()).toBe('7.00 of 20')
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'booklets-learner-report-phone-en')
    // The marked page on its own as well: in the full-page screenshot Chromium leaves this asynchronously decoded image
    // blank (it resizes the page to take it), though the page shows it, as this element's screenshot does.
    await sheet.screenshot({ path: path.join(artifacts, 'screenshots', 'booklets-learner-page-phone-en.png') })
  })
})
