import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import enAdmin from '../web/src/i18n/locales/en/admin.json'
import enBank from '../web/src/i18n/locales/en/bank.json'
import neAdmin from '../web/src/i18n/locales/ne/admin.json'
import neBank from '../web/src/i18n/locales/ne/bank.json'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import neQuiz from '../web/src/i18n/locales/ne/quiz.json'
import enResults from '../web/src/i18n/locales/en/results.json'
import neResults from '../web/src/i18n/locales/ne/results.json'
import {
  DESKTOP,
  PHONE,
  QUIZ_LEARNER_PASSWORD as PASSWORD,
  artifacts,
  closeExamPalette,
  createAdmin,
  createQuiz,
  examPalette,
  expectAccessible,
  expectNoSidewaysScroll,
  imageRendered,
  interpolate as fill,
  screenshot,
  setUpJourney,
  startNetworkLink,
  submitExam,
  type NetworkLink,
} from './fixtures'

// Issue 57, the learner's side and the admin's form: a learner answers one written question by typing and one by
// three photos, loses the connection while the photos go, and finishes once it returns; the server then holds the
// text and the three pages in order. An admin creates a written question with a rubric in the question form.

const ADMIN = { username: 'writtenadmin', password: 'Kathmandu-Written-77' }
const typedQuestion = 'Explain the role of the Public Service Commission.'
const photoQuestion = 'Describe the federal structure of Nepal, on paper.'
const typedAnswer = 'लोक सेवा आयोग संवैधानिक निकाय हो। It recruits civil servants on merit.'

const journey = setUpJourney()
let adminToken: string
let network: NetworkLink
/** Three page photos told apart by their widths, which the server keeps (each is under 2,200 px). */
const widths = [1800, 1700, 1600]
let photos: string[]

beforeAll(async () => {
  adminToken = await createAdmin(journey.server, ADMIN)
  network = await startNetworkLink(journey.server)
  const dir = path.join(artifacts, 'written-photos')
  mkdirSync(dir, { recursive: true })
  // Noise, as a phone photo of paper is to a JPEG encoder: each page takes the server a moment to keep.
  photos = await Promise.all(
    widths.map(async (width, index) => {
      const file = path.join(dir, `page-${index + 1}.jpg`)
      await sharp({
        create: {
          width,
          height: 1400,
          channels: 3,
          background: '#fff',
          noise: { type: 'gaussian', mean: 200, sigma: 40 },
        },
      })
        .jpeg({ quality: 90 })
        .toFile(file)
      return file
    }),
  )
})
afterAll(() => network.close())

async function goOffline(page: Page) {
  network.cut()
  await page.context().setOffline(true)
}

async function goOnline(page: Page) {
  network.restore()
  await page.context().setOffline(false)
}

function quizJson() {
  return {
    title: { en: 'Written paper', ne: 'लिखित पत्र' },
    duration_minutes: 30,
    allowed_attempts: 1,
    questions: [
      {
        text: { en: 'Which body conducts the Loksewa exams?' },
        options: [
          { text: { en: 'The Public Service Commission' }, is_correct: true },
          { text: { en: 'The Election Commission' }, is_correct: false },
        ],
      },
      {
        type: 'written',
        text: { en: typedQuestion, ne: 'लोक सेवा आयोगको भूमिका व्याख्या गर्नुहोस्।' },
        marks: 10,
        word_limit: 150,
      },
      { type: 'written', text: { en: photoQuestion, ne: 'नेपालको सङ्घीय संरचना वर्णन गर्नुहोस्।' }, marks: 20 },
    ],
  }
}

const goTo = async (page: Page, n: number) => {
  await (
    await examPalette(page)
  )
    .locator('.navigator__number')
    .nth(n - 1)
    .click()
}

describe('written answers in the exam', () => {
  it('are typed, and photographed in three pages that arrive in order after the connection drops mid-upload', async () => {
    const quizId = await createQuiz(journey.server, adminToken, quizJson())
    journey.server.cli('create-learners', ['--count', '1', '--prefix', 'writer', '--password', PASSWORD])
    const page = await journey.open({
      viewport: PHONE,
      user: { username: 'writer1', password: PASSWORD },
      baseUrl: network.baseUrl,
    })
    await page.goto(`/quiz/${quizId}`)
    await page.getByText(enQuiz.kept.all, { exact: true }).waitFor()

    // Question 2: typed, Nepali and English, with a live word count.
    await goTo(page, 2)
    await page.getByText(typedQuestion).waitFor()
    const box = page.getByRole('textbox', { name: enQuiz.written.text_label })
    await box.fill(typedAnswer)
    await page
      .getByText(fill(enQuiz.written.words_of_limit_other, { words: 12, limit: 150 }), { exact: true })
      .waitFor()
    await page.getByText(fill(enQuiz.save.saved, {}), { exact: true }).waitFor()
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'written-exam-typed-en-phone')

    // Question 3: three photos from the gallery; the connection drops once the first has arrived.
    await goTo(page, 3)
    await page.getByText(photoQuestion).waitFor()
    // The connection drops as the second photo starts on its way: that request dies mid-upload.
    let uploads = 0
    const dropped = new Promise<void>((resolve) => {
      page.context().on('request', (request) => {
        if (request.method() !== 'POST' || !request.url().endsWith('/pages/')) return
        uploads += 1
        if (uploads === 2) void goOffline(page).then(resolve)
      })
    })
    await page.getByLabel(enQuiz.written.choose_photos).setInputFiles(photos)
    await dropped
    await page.getByText(enQuiz.written.status.queued, { exact: true }).first().waitFor()
    expect(await page.getByText(enQuiz.written.status.sent, { exact: true }).count()).toBeLessThan(3)
    await screenshot(page, 'written-exam-photos-offline-en-phone')
    // The palette counts both written questions answered.
    const palette = await examPalette(page)
    const states = await palette
      .locator('.navigator__number')
      .evaluateAll((buttons) => buttons.map((button) => button.className.includes('palette--answered')))
    // The question buttons come first; the legend's samples follow.
    expect(states.slice(0, 3)).toEqual([false, true, true])
    await closeExamPalette(page)

    await goOnline(page)
    await expect
      .poll(() => page.getByText(enQuiz.written.status.sent, { exact: true }).count(), { timeout: 30_000 })
      .toBe(3)
    await expectAccessible(page)
    await screenshot(page, 'written-exam-photos-en-phone')

    // Another device (a laptop, nothing of the attempt on it) resumes the attempt: the typed text and the three
    // pages, in order, are there (docs/decisions/081).
    const laptop = await journey.open({ viewport: DESKTOP, user: { username: 'writer1', password: PASSWORD } })
    await laptop.goto(`/quiz/${quizId}`)
    await laptop.getByText(enQuiz.kept.all, { exact: true }).waitFor()
    await goTo(laptop, 2)
    await laptop.getByText(typedQuestion).waitFor()
    expect(await laptop.getByRole('textbox', { name: enQuiz.written.text_label }).inputValue()).toBe(typedAnswer)
    await laptop
      .getByText(fill(enQuiz.written.words_of_limit_other, { words: 12, limit: 150 }), { exact: true })
      .waitFor()
    await goTo(laptop, 3)
    await laptop.getByText(photoQuestion).waitFor()
    const thumbs = laptop.locator('.written__page img')
    await expect.poll(() => thumbs.count()).toBe(3)
    expect(await laptop.getByText(enQuiz.written.status.sent, { exact: true }).count()).toBe(3)
    for (const index of [0, 1, 2]) await expect.poll(() => imageRendered(thumbs.nth(index))).toBe(true)
    // In the order taken: the thumbnails are the pages' 720 px renditions (decision 078), so each page is told by
    // its shape, the height its width gave it (1,400 px tall at 1,800, 1,700 and 1,600 wide).
    const shownHeights = await thumbs.evaluateAll((images) =>
      images.map((image) => [(image as HTMLImageElement).naturalWidth, (image as HTMLImageElement).naturalHeight]),
    )
    expect(shownHeights.map(([width]) => width)).toEqual([720, 720, 720])
    shownHeights.forEach(([, height], index) =>
      expect(Math.abs(height! - (1400 * 720) / widths[index]!)).toBeLessThan(1),
    )
    await expectAccessible(laptop)
    await screenshot(laptop, 'written-exam-resumed-en-desktop')
    await laptop.context().close()

    // The same question in Nepali: accessible too.
    await page.getByRole('button', { name: 'नेपाली' }).click()
    await page.getByText(neQuiz.written.photos_heading, { exact: true }).waitFor()
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'written-exam-photos-ne-phone')
    await goTo(page, 2)
    await page.getByRole('textbox', { name: neQuiz.written.text_label }).waitFor()
    await expectAccessible(page)
    await screenshot(page, 'written-exam-typed-ne-phone')
    // At 1280 px in both languages (issue 57: every written screen at 360 and 1280 px).
    await page.setViewportSize(DESKTOP)
    await expectAccessible(page)
    // At 1280 px the exam's own language toggle is beside the nav's: either switches the one setting.
    await page.getByRole('button', { name: 'English' }).first().click()
    await page.getByRole('textbox', { name: enQuiz.written.text_label }).waitFor()
    await expectAccessible(page)
    await page.setViewportSize(PHONE)

    const score = await submitExam(page)
    await score.getByText(enQuiz.written.after.marking).waitFor()
    const attemptId = Number(
      (await score.getByRole('link', { name: enQuiz.score.view_report }).getAttribute('href'))!.match(/\d+/)![0],
    )

    // The server holds the text and the three pages, in the order they were taken.
    const token = (await page.evaluate(() => localStorage.getItem('accessToken')))!
    const { body: attempt } = await journey.server.api<{ questions: { id: number }[] }>(
      'GET',
      `/api/admin/quizzes/${quizId}/`,
      undefined,
      adminToken,
    )
    const [, typedId, photoId] = attempt.questions.map((question) => question.id)
    const read = async (questionId: number) =>
      (
        await journey.server.api<{ text: string; pages: { width: number }[] }>(
          'GET',
          `/api/results/${attemptId}/written/${questionId}/`,
          undefined,
          token,
        )
      ).body
    expect((await read(typedId!)).text).toBe(typedAnswer)
    expect((await read(photoId!)).pages.map((page) => page.width)).toEqual(widths)

    // My Results: the written part awaits marking, in both languages.
    await page.goto('/results')
    await page.getByRole('button', { name: /Written paper/ }).click()
    await page.getByText(enResults.written_part.awaiting).waitFor()
    await expectAccessible(page)
    await screenshot(page, 'written-results-awaiting-en-phone')
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'नेपाली' }).click()
    await page.getByRole('button', { name: /लिखित पत्र/ }).click()
    await page.getByText(neResults.written_part.awaiting).waitFor()
    await expectAccessible(page)
    await screenshot(page, 'written-results-awaiting-ne-phone')
  })
})

describe('the admin’s question form', () => {
  it('creates a written question with marks, a word limit, a model answer and a rubric', async () => {
    const page = await journey.open({ viewport: DESKTOP, user: ADMIN })
    await page.goto('/admin/bank')
    await page.getByRole('button', { name: enBank.new_question }).click()
    const form = enAdmin.question_form
    const written = enAdmin.written
    await page.getByRole('radio', { name: written.type_written }).check()
    await page.getByLabel(form.text_en).fill('Discuss the functions of the National Assembly.')
    await page.getByLabel(written.marks, { exact: true }).fill('10')
    await page.getByLabel(written.word_limit, { exact: true }).fill('250')
    await page.getByLabel(written.model_answer_en).fill('It reviews bills and represents the provinces.')
    for (const [n, points, title] of [
      [1, '4', 'Names the functions'],
      [2, '3', 'Gives examples'],
    ] as const) {
      await page.getByRole('button', { name: written.rubric.add_item }).click()
      await page.getByLabel(fill(written.rubric.points, { number: n })).fill(points)
      await page.getByLabel(fill(written.rubric.title_en, { number: n })).fill(title)
    }
    // Reordered by keyboard: the second item moves up.
    await page.getByRole('button', { name: fill(written.rubric.move_down, { number: 1 }) }).focus()
    await page.keyboard.press('Enter')
    await expectAccessible(page)
    await screenshot(page, 'written-question-form-en-desktop')
    // The rubric editor at 360 px in English too (the Nepali phone form below is checked at 1280 px too).
    await page.setViewportSize(PHONE)
    await expectAccessible(page)
    await page.setViewportSize(DESKTOP)
    await page.getByRole('button', { name: form.save }).click()
    await page.getByText(enBank.saved).waitFor()

    // The form on a phone, in Nepali.
    const phone = await journey.open({ viewport: PHONE, user: ADMIN, language: 'ne' })
    await phone.goto('/admin/bank')
    await phone.getByRole('button', { name: neBank.new_question }).click()
    await phone.getByRole('radio', { name: neAdmin.written.type_written }).check()
    await phone.getByRole('button', { name: neAdmin.written.rubric.add_item }).click()
    await phone.getByRole('button', { name: neAdmin.written.rubric.add_group }).click()
    await expectAccessible(phone)
    // The form itself fits the phone (the bank's own list below it is wider, as before).
    const wide = await phone
      .locator('.admin-question-form *')
      .evaluateAll((elements) =>
        elements
          .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
          .map((e) => e.outerHTML.slice(0, 80)),
      )
    expect(wide).toEqual([])
    await screenshot(phone, 'written-question-form-ne-phone')
    await phone.setViewportSize(DESKTOP)
    await expectAccessible(phone)

    const { body: list } = await journey.server.api<{ results: { id: number; type: string }[] }>(
      'GET',
      '/api/admin/bank/questions/?type=written',
      undefined,
      adminToken,
    )
    const created = list.results.find((question) => question.type === 'written')!
    const { body: rubric } = await journey.server.api<{ items: { points: number; title: { en: string } }[] }>(
      'GET',
      `/api/admin/bank/questions/${created.id}/rubric/`,
      undefined,
      adminToken,
    )
    expect(rubric.items.map((item) => [item.title.en, item.points])).toEqual([
      ['Gives examples', 3],
      ['Names the functions', 4],
    ])
  })
})
