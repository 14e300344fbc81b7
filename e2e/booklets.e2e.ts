import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { drawMark, photographSheet, seededRandom, type MarkStyle } from '../server/test/fixtures/sheet-photos'
import neSittings from '../web/src/i18n/locales/ne/sittings.json'
import {
  DESKTOP,
  PHONE,
  artifacts,
  createAdmin,
  createQuiz,
  expectAccessible,
  expectNoSidewaysScroll,
  interpolate,
  screenshot,
  setUpJourney,
  waitForHeading,
} from './fixtures'

// Issue 58's screens against the real server: a written sitting's answer booklets printed (looked at as PDF pages),
// two learners' booklet pages photographed and sent through "Scan sheets", one page's question bubbles too faint to
// trust, and that page settled in "Review".

const ADMIN = { username: 'bookletteacher', password: 'Kathmandu-Booklets-77' }
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
let sittingId = 0

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
  const quizId = await createQuiz(server, adminToken, QUIZ)
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

  it('records two learners\' pages sent through "Scan sheets", and settles the page whose bubbles were unclear', async () => {
    const clear = await filledPagePhoto(1, 1, [[1, 'pen']], 41)
    const faint = await filledPagePhoto(2, 1, [[2, 'light']], 42)
    const page = await journey.open({ user: ADMIN, viewport: PHONE })
    await page.goto(`/admin/sittings/${sittingId}/scan`)
    await page.getByLabel('Photos of answer sheets or booklet pages (many at once)').setInputFiles([
      { name: 'pen1-page1.jpg', mimeType: 'image/jpeg', buffer: clear },
      { name: 'pen2-page1.jpg', mimeType: 'image/jpeg', buffer: faint },
    ])
    await page.getByText('2 of 2 photos read.').waitFor({ timeout: 60_000 })
    const item = (name: string) => page.locator('.scan-uploads__item').filter({ hasText: name })
    await expect.poll(() => item('pen1-page1.jpg').textContent()).toContain('Booklet page recorded')
    expect(await item('pen1-page1.jpg').textContent()).toContain('Roll 1 · page 1 · question 1')
    await expect.poll(() => item('pen2-page1.jpg').textContent()).toContain('Booklet page needs review')
    expect(await item('pen2-page1.jpg').textContent()).toContain('The question-number bubbles are unclear')
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
})
