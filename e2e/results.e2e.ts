import { beforeAll, describe, expect, it } from 'vitest'
import enNav from '../web/src/i18n/locales/en/nav.json'
import enResults from '../web/src/i18n/locales/en/results.json'
import neNav from '../web/src/i18n/locales/ne/nav.json'
import neResults from '../web/src/i18n/locales/ne/results.json'
import {
  DESKTOP,
  PHONE,
  createAdmin,
  createQuiz,
  expectAccessible,
  expectNoSidewaysScroll,
  graphemes,
  interpolate as fill,
  screenshot,
  setUpJourney,
  waitForHeading,
  type TestServer,
  OPTION_SVG,
  QUIZ_ADMIN as ADMIN,
  QUIZ_LEARNER_PASSWORD as PASSWORD,
  digits,
} from './fixtures'

// My Results and the report card of SPEC.md against the real server, in English and Nepali, at 360x740 and
// desktop. Attempts are made through the API (the quiz journey itself is e2e/quiz.e2e.ts); everything the
// learner then reads goes through the UI.

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 60"><rect width="120" height="60" fill="#fef3c7"/><circle cx="60" cy="30" r="22" fill="#b91c1c"/></svg>'

// Longer than 60 user-perceived characters in both languages, so the report rows cut them.
const LONG = {
  en: 'Which river flows through the Kathmandu Valley past Pashupatinath and later joins the Ganges?',
  ne: 'काठमाडौं उपत्यकामा पशुपतिनाथ मन्दिर हुँदै बग्ने र पछि भारतमा गङ्गा नदीमा मिसिने नदी कुन हो? क्षत्रिय स्ते',
}
const HINT = { en: 'It is named after a sage.', ne: 'यसको नाम एक ऋषिबाट राखिएको हो।' }
const QUIZ = {
  title: { en: 'Science Basics', ne: 'विज्ञानका आधारहरू' },
  duration_minutes: 20,
  allowed_attempts: 3,
  questions: [
    {
      text: LONG,
      hint: HINT,
      image: { svg: SVG, caption: { en: 'The red sun', ne: 'रातो सूर्य' } },
      options: [
        {
          text: { en: 'Bagmati', ne: 'बागमती' },
          is_correct: true,
          image: { svg: OPTION_SVG, caption: { en: 'Green tile', ne: 'हरियो टायल' } },
        },
        { text: { en: 'Koshi', ne: 'कोशी' }, is_correct: false },
        { text: { en: 'Gandaki', ne: 'गण्डकी' }, is_correct: false },
      ],
    },
    ...Array.from({ length: 11 }, (_, index) => ({
      text: { en: `Short question ${index + 2}?`, ne: `छोटो प्रश्न ${index + 2}?` },
      options: [
        { text: { en: 'Yes', ne: 'हो' }, is_correct: true },
        { text: { en: 'No', ne: 'होइन' }, is_correct: false },
      ],
    })),
  ],
}

const texts = { en: { results: enResults, nav: enNav }, ne: { results: neResults, nav: neNav } }

const journey = setUpJourney()
let server: TestServer
let quizId: number
const attemptIds: number[] = []

/** One finished attempt through the API: start, then submit `pick(question index, option ids)`. */
async function finishAttempt(token: string, pick: (index: number, optionIds: number[]) => number | null) {
  const start = await server.api<{ questions: { id: number }[]; attempt: { id: number } }>(
    'GET',
    `/api/quizzes/${quizId}/`,
    undefined,
    token,
  )
  expect(start.status).toBe(200)
  const answers: Record<string, number | null> = {}
  for (const [index, { id }] of start.body.questions.entries()) {
    const question = await server.api<{ options: { id: number }[] }>(
      'GET',
      `/api/quizzes/${quizId}/question/${index + 1}/`,
      undefined,
      token,
    )
    answers[String(id)] = pick(
      index,
      question.body.options.map((option) => option.id),
    )
  }
  const submitted = await server.api<{ attempt_id: number; score: number }>(
    'POST',
    `/api/quizzes/${quizId}/submit/`,
    { answers, attempt_id: start.body.attempt.id },
    token,
  )
  expect(submitted.status).toBe(200)
  return submitted.body
}

beforeAll(async () => {
  server = journey.server
  const adminToken = await createAdmin(server, ADMIN)
  server.cli('create-learners', ['--count', '2', '--prefix', 'reader', '--password', PASSWORD])
  quizId = await createQuiz(server, adminToken, QUIZ)

  const token = (await server.login('reader1', PASSWORD)).access
  // Attempt 1: Q1 right, Q2 wrong, Q3 unanswered, the rest right = 10 - 0.2 = 9.80.
  const first = await finishAttempt(token, (index, options) =>
    index === 0 ? options[0]! : index === 1 ? options[1]! : index === 2 ? null : options[0]!,
  )
  expect(first.score).toBe(9.8)
  // Attempt 2: Q1 wrong, nothing else = -0.20.
  const second = await finishAttempt(token, (index, options) => (index === 0 ? options[2]! : null))
  expect(second.score).toBe(-0.2)
  attemptIds.push(first.attempt_id, second.attempt_id)
})

const combos = [
  { language: 'en' as const, size: 'phone', viewport: PHONE },
  { language: 'ne' as const, size: 'phone', viewport: PHONE },
  { language: 'en' as const, size: 'desktop', viewport: DESKTOP },
  { language: 'ne' as const, size: 'desktop', viewport: DESKTOP },
]

describe.each(combos)('results and report card ($language, $size)', ({ language, size, viewport }) => {
  const { results: r, nav } = texts[language]
  const shot = (name: string) => `results-${name}-${language}-${size}`
  const title = QUIZ.title[language]

  const open = (username: string) => journey.open({ viewport, language, user: { username, password: PASSWORD } })

  it('lists the quiz with its attempts and opens a report from the attempts modal', async () => {
    const page = await open('reader1')
    await page.goto('/')
    await page.getByRole('link', { name: nav.my_results, exact: true }).click()
    await page.waitForURL('**/results')
    await waitForHeading(page, r.title)
    const quizButton = page.getByRole('button', { name: new RegExp(title) })
    expect(await quizButton.textContent()).toContain(fill(r.attempt_count_other, { count: 2 }))
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, shot('list'))

    await quizButton.click()
    const dialog = page.getByRole('dialog', { name: title })
    await dialog.waitFor()
    const rows = dialog.getByRole('listitem')
    expect(await rows.count()).toBe(2)
    expect(await rows.nth(0).textContent()).toContain(fill(r.attempt_number, { number: 1 }))
    expect(await rows.nth(0).textContent()).toContain(digits('9.80', language))
    expect(await rows.nth(1).textContent()).toContain(fill(r.attempt_number, { number: 2 }))
    expect(await rows.nth(1).textContent()).toContain(digits('-0.20', language))
    // Completion time in the local format of the app's language.
    expect(await rows.nth(0).locator('time').textContent()).toMatch(language === 'en' ? /\d{4}/ : /[०-९]{4}/)
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, shot('attempts-modal'))

    await dialog.getByRole('link', { name: fill(r.view_report_for, { number: 1 }) }).click()
    await page.waitForURL(`**/results/${attemptIds[0]}`)
    await waitForHeading(page, title)
  })

  it('shows the report card with previews and badges, and the detail modal with answers, images and hint', async () => {
    const page = await open('reader1')
    await page.goto(`/results/${attemptIds[0]}`)
    await waitForHeading(page, title)
    // The score of its maximum (WEB.md "Sections on the exam screen"): 12 questions at one mark each.
    expect(await page.locator('.report-summary__value').textContent()).toBe(
      digits(language === 'ne' ? '12 मध्ये 9.80' : '9.80 of 12', language),
    )
    const rows = page.locator('.analysis__row')
    expect(await rows.count()).toBe(12)

    // Row 1: the first 60 user-perceived characters, in the current language, then "...".
    const preview = (await rows.nth(0).locator('.analysis__text').textContent()) ?? ''
    expect(preview.endsWith('...')).toBe(true)
    const kept = preview.slice(0, -3)
    expect(LONG[language].startsWith(kept)).toBe(true)
    expect(graphemes(kept).length).toBeLessThanOrEqual(60)
    expect(graphemes(kept).length).toBeGreaterThan(55)
    expect(await rows.nth(1).locator('.analysis__text').textContent()).toBe(QUIZ.questions[1]!.text[language])
    expect(await rows.nth(0).locator('.badge').textContent()).toBe(r.status.correct)
    expect(await rows.nth(1).locator('.badge').textContent()).toBe(r.status.incorrect)
    expect(await rows.nth(2).locator('.badge').textContent()).toBe(r.status.unanswered)
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, shot('report'))

    // Question 1: right answer, with the image, the option image and the hint.
    await rows.nth(0).click()
    const detail = page.getByRole('dialog', { name: fill(r.detail.title, { number: 1 }) })
    await detail.waitFor()
    expect(await detail.getByText(LONG[language], { exact: true }).isVisible()).toBe(true)
    const image = detail.getByRole('img', { name: language === 'en' ? 'The red sun' : 'रातो सूर्य' })
    expect(await image.getAttribute('src')).toMatch(/^data:image\/svg\+xml/)
    expect(await detail.getByText(language === 'en' ? 'Green tile' : 'हरियो टायल', { exact: true }).isVisible()).toBe(
      true,
    )
    const options = detail.locator('.report-option')
    expect(await options.nth(0).textContent()).toContain(r.detail.your_answer)
    expect(await options.nth(0).textContent()).toContain(r.detail.correct_answer)
    expect(await options.nth(1).textContent()).not.toContain(r.detail.your_answer)
    expect(await detail.getByText(HINT[language], { exact: true }).isVisible()).toBe(true)
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, shot('detail-modal'))
    await page.keyboard.press('Escape')
    await detail.waitFor({ state: 'detached' })

    // Question 2: the learner's wrong answer and the correct one are told apart in words.
    await rows.nth(1).click()
    const second = page.getByRole('dialog', { name: fill(r.detail.title, { number: 2 }) })
    await second.waitFor()
    const secondOptions = second.locator('.report-option')
    expect(await secondOptions.nth(0).textContent()).toContain(r.detail.correct_answer)
    expect(await secondOptions.nth(0).textContent()).not.toContain(r.detail.your_answer)
    expect(await secondOptions.nth(1).textContent()).toContain(r.detail.your_answer)
    await screenshot(page, shot('detail-modal-wrong'))
    await second.locator('.dialog__close').click()

    // The screen's own toggle switches the content language.
    const other = language === 'en' ? 'ne' : 'en'
    await page
      .locator('.language-toggle')
      .getByRole('button', { name: other === 'en' ? 'English' : 'नेपाली' })
      .click()
    await waitForHeading(page, QUIZ.title[other])
    expect(await rows.nth(1).locator('.analysis__text').textContent()).toBe(QUIZ.questions[1]!.text[other])
  })

  it('tells a learner without results what to do', async () => {
    const page = await open('reader2')
    await page.goto('/results')
    await page.getByText(r.empty, { exact: true }).waitFor()
    expect(await page.getByRole('link', { name: r.go_to_dashboard }).getAttribute('href')).toBe('/')
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, shot('empty'))
  })

  it('says when a report card cannot be loaded', async () => {
    const page = await open('reader2')
    // Another learner's attempt is not found for this one (API.md).
    await page.goto(`/results/${attemptIds[0]}`)
    await page.getByRole('alert').filter({ hasText: r.report.load_failed }).waitFor()
    await expectAccessible(page)
  })
})
