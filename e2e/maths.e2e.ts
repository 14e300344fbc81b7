import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import enAdmin from '../web/src/i18n/locales/en/admin.json'
import enPractice from '../web/src/i18n/locales/en/practice.json'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import enResults from '../web/src/i18n/locales/en/results.json'
import nePractice from '../web/src/i18n/locales/ne/practice.json'
import neQuiz from '../web/src/i18n/locales/ne/quiz.json'
import neResults from '../web/src/i18n/locales/ne/results.json'
import {
  DESKTOP,
  PHONE,
  createAdmin,
  createQuiz,
  expectAccessible,
  expectNoSidewaysScroll,
  interpolate as fill,
  screenshot,
  setUpJourney,
  submitExam,
  waitForHeading,
  type TestServer,
  QUIZ_ADMIN as ADMIN,
  QUIZ_LEARNER_PASSWORD as PASSWORD,
} from './fixtures'

// Maths and chemistry (issue 26) against the real server: an admin writes a fraction and a chemical equation in
// TeX; a learner at 360 px sees them drawn (MathML), never their TeX, on the quiz screen, the report and the practice
// screen, in English and in Nepali, with no axe violations.

const HALF = '$\\frac{1}{2}$'
const WATER = '$\\ce{2H2 + O2 -> 2H2O}$'
const QUIZ = {
  title: { en: 'Science Mock', ne: 'विज्ञान नमूना परीक्षा' },
  duration_minutes: 30,
  allowed_attempts: 2,
  questions: [
    {
      text: { en: `What is ${HALF} of 10?`, ne: `१० को ${HALF} कति हो?` },
      topic: 'Arithmetic',
      hint: { en: 'Half of ten: $\\frac{10}{2} = 5$.', ne: 'दसको आधा: $\\frac{10}{2} = 5$।' },
      options: [
        { text: { en: '$5$', ne: '$5$' }, is_correct: true },
        { text: { en: '$\\frac{1}{20}$', ne: '$\\frac{1}{20}$' }, is_correct: false },
      ],
    },
    {
      text: { en: `Which equation is balanced: ${WATER} or not?`, ne: `कुन समीकरण सन्तुलित छ: ${WATER} कि होइन?` },
      topic: 'Chemistry',
      options: [
        { text: { en: `${HALF} of it: ${WATER}`, ne: `यसको ${HALF}: ${WATER}` }, is_correct: true },
        { text: { en: '$\\ce{H2 + O2 -> H2O}$', ne: '$\\ce{H2 + O2 -> H2O}$' }, is_correct: false },
      ],
    },
  ],
}

/** What a reader sees of TeX: any `$`, or a backslash command such as `\frac` or `\ce`. */
const TEX = /\$|\\[a-zA-Z]/

/**
 * The formulas in `scope` are drawn (at least `count` MathML elements with a size), and none of its visible text is
 * TeX (MathML's TeX annotation is hidden by the browser, so innerText does not hold it).
 */
async function expectMaths(scope: Locator, count: number) {
  await scope.locator('math').first().waitFor()
  const sizes = await scope
    .locator('math')
    .evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().width))
  expect(sizes.length).toBeGreaterThanOrEqual(count)
  expect(sizes.every((width) => width > 0)).toBe(true)
  expect(await scope.innerText()).not.toMatch(TEX)
}

/** The whole screen: maths drawn, no TeX anywhere visible, accessible, no sideways scroll at 360 px. */
async function expectScreen(page: Page, count: number) {
  await expectMaths(page.locator('main'), count)
  await expectAccessible(page)
  await expectNoSidewaysScroll(page)
}

const journey = setUpJourney()
let server: TestServer
let quizId: number

beforeAll(async () => {
  server = journey.server
  const adminToken = await createAdmin(server, ADMIN)
  quizId = await createQuiz(server, adminToken, QUIZ)
  server.cli('create-learners', ['--count', '1', '--prefix', 'pupil', '--password', PASSWORD])
})

describe('maths and chemistry', () => {
  it('shows the admin the TeX they wrote rendered in the question list, and previews it as they type', async () => {
    const page = await journey.open({ viewport: DESKTOP, user: ADMIN })
    await page.goto(`/admin/quiz/${quizId}/edit`)
    const list = page.locator('.admin-questions')
    await expectMaths(list, 2)
    await page.getByRole('button', { name: fill(enAdmin.questions.edit_named, { n: 1 }) }).click()
    const text = page.getByLabel(enAdmin.question_form.text_en, { exact: true })
    await expect.poll(() => text.inputValue()).toBe(QUIZ.questions[0]!.text.en)
    const field = text.locator('xpath=ancestor::div[contains(@class, "field")][1]')
    await expectMaths(field.locator('.maths-preview__text'), 1)
    // A formula that does not parse: KaTeX's message, as typed, before anything is saved.
    await text.fill('What is $\\frac{1}$ of 10?')
    await field.getByText(/^The formula \$\\frac\{1\}\$ does not parse: /).waitFor()
    await expectAccessible(page)
  })

  it('draws a fraction and a chemical equation at 360 px on the quiz, report and practice screens, in both languages', async () => {
    const page = await journey.open({ viewport: PHONE, user: { username: 'pupil1', password: PASSWORD } })

    // The quiz screen in English: question 1 answered wrong (so that it comes back in practice), question 2 right.
    await page.goto(`/quiz/${quizId}/instructions`)
    await page.getByRole('link', { name: enQuiz.instructions.start }).click()
    await page.locator('.question__text math').waitFor()
    expect(await page.locator('.question__text').innerText()).toMatch(/^What is .+ of 10\?$/s)
    await expectMaths(page.locator('.options'), 2)
    await expectScreen(page, 3)
    await screenshot(page, 'maths-quiz-en-phone')
    await page
      .locator('label.option')
      .filter({ has: page.locator('mfrac') })
      .click()
    await page.getByRole('button', { name: enQuiz.next, exact: true }).click()
    await page.getByText(/^Which equation is balanced:/).waitFor()
    await expectScreen(page, 4)
    await page.locator('label.option').first().click()
    const score = await submitExam(page)
    await score.getByText('0.80', { exact: true }).waitFor()

    // The report: the rows (a preview of a text with maths is the whole text, clipped) and the question's dialog.
    const token = (await server.login('pupil1', PASSWORD)).access
    const [result] = (await server.api<{ attempts: { id: number }[] }[]>('GET', '/api/results/', undefined, token)).body
    const attemptId = result!.attempts[0]!.id
    await page.goto(`/results/${attemptId}`)
    await waitForHeading(page, enResults.report.analysis, { level: 2 })
    await expectScreen(page, 2)
    await page.locator('.analysis__row').first().click()
    const dialog = page.getByRole('dialog', { name: fill(enResults.detail.title, { number: 1 }) })
    await expectMaths(dialog.locator('.report-detail__text'), 1)
    await expectMaths(dialog.locator('.report-options'), 2)
    await expectMaths(dialog.locator('.report-hint'), 1)
    await expectAccessible(page)
    await screenshot(page, 'maths-report-detail-en-phone')
    await page.keyboard.press('Escape')

    // Practice: the question answered wrong.
    await page.goto('/practice')
    await waitForHeading(page, enPractice.title)
    await page.locator('.practice-card__text math').waitFor()
    await expectScreen(page, 3)

    // Nepali: practice, the report and its dialog, then the quiz screen of a second attempt.
    await page.locator('.language-switcher__button[lang="ne"]').click()
    await waitForHeading(page, nePractice.title)
    expect(await page.locator('.practice-card__text').innerText()).toMatch(/^१० को .+ कति हो\?$/s)
    await expectScreen(page, 3)
    await page
      .locator('.practice-option')
      .filter({ has: page.locator('mn', { hasText: /^5$/ }) })
      .click()
    await page.locator('.practice-feedback math').waitFor()
    await expectMaths(page.locator('.practice-feedback'), 1)
    await expectAccessible(page)
    await screenshot(page, 'maths-practice-ne-phone')

    await page.goto(`/results/${attemptId}`)
    await waitForHeading(page, neResults.report.analysis, { level: 2 })
    await expectScreen(page, 2)
    await page.locator('.analysis__row').nth(1).click()
    const neDialog = page.getByRole('dialog', { name: fill(neResults.detail.title, { number: 2 }) })
    expect(await neDialog.locator('.report-detail__text').innerText()).toMatch(/^कुन समीकरण सन्तुलित छ: .+ कि होइन\?$/s)
    await expectMaths(neDialog.locator('.report-options'), 3)
    await expectAccessible(page)
    await page.keyboard.press('Escape')

    await page.goto(`/quiz/${quizId}/instructions`)
    await page.getByRole('link', { name: neQuiz.instructions.start }).click()
    await page.locator('.question__text math').waitFor()
    expect(await page.locator('.question__text').innerText()).toMatch(/^१० को .+ कति हो\?$/s)
    await expectScreen(page, 3)
    await screenshot(page, 'maths-quiz-ne-phone')
  })
})
