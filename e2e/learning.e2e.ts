import { beforeAll, describe, expect, it } from 'vitest'
import enNav from '../web/src/i18n/locales/en/nav.json'
import enPractice from '../web/src/i18n/locales/en/practice.json'
import enProgress from '../web/src/i18n/locales/en/progress.json'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import enResults from '../web/src/i18n/locales/en/results.json'
import neNav from '../web/src/i18n/locales/ne/nav.json'
import neProgress from '../web/src/i18n/locales/ne/progress.json'
import neResults from '../web/src/i18n/locales/ne/results.json'
import {
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

// The learning loop (issue 8) against the real server at 360 px: a learner finishes a quiz on the exam screen,
// reads rank and topics on the report card, practises a wrong question twice, then reads the report card and
// My Progress in Nepali (Bikram Sambat dates, Devanagari digits).

const BS_MONTHS = 'बैशाख|जेठ|असार|साउन|भदौ|असोज|कात्तिक|मंसिर|पुस|माघ|फागुन|चैत'
// A Bikram Sambat date and Nepal time, e.g. "२०८३ मंसिर ६, १२:४५" (the Gregorian year would read २०२६).
const BS_DATE_TIME = new RegExp(`२०८[३४] (${BS_MONTHS}) [०-९]{1,2}, [०-९]{2}:[०-९]{2}`)

const question = (en: string, ne: string, topic: string, hint: string, options: [string, string][]) => ({
  text: { en, ne },
  topic,
  hint: { en: hint, ne: '' },
  options: options.map(([optionEn, optionNe], index) => ({
    text: { en: optionEn, ne: optionNe },
    is_correct: index === 0,
  })),
})
const QUIZ = {
  title: { en: 'Maths Check', ne: 'गणित जाँच' },
  duration_minutes: 30,
  allowed_attempts: 2,
  questions: [
    question('Two plus two?', 'दुई जोड दुई?', 'Algebra', 'Count on your fingers.', [
      ['Four', 'चार'],
      ['Five', 'पाँच'],
    ]),
    question('How many sides has a triangle?', 'त्रिभुजका कति भुजा हुन्छन्?', 'Geometry', 'Tri means three.', [
      ['Three', 'तीन'],
      ['Four sides', 'चार भुजा'],
    ]),
    question('How many sides has a square?', 'वर्गका कति भुजा हुन्छन्?', 'Geometry', 'Like a window.', [
      ['Four equal sides', 'चार बराबर भुजा'],
      ['Six', 'छ'],
    ]),
  ],
}

const journey = setUpJourney()
let server: TestServer
let quizId: number

/** Another learner's first attempt through the API: `right` questions answered right, the rest left unanswered. */
async function othersAttempt(username: string, right: number) {
  const token = (await server.login(username, PASSWORD)).access
  const start = await server.api<{ questions: { id: number }[] }>('GET', `/api/quizzes/${quizId}/`, undefined, token)
  const answers: Record<string, number> = {}
  for (let n = 1; n <= right; n++) {
    const shown = await server.api<{ id: number; options: { id: number; text: { en: string } }[] }>(
      'GET',
      `/api/quizzes/${quizId}/question/${n}/`,
      undefined,
      token,
    )
    const correct = QUIZ.questions.find(
      (q) => q.text.en === (shown.body as unknown as { text: { en: string } }).text.en,
    )!
    answers[shown.body.id] = shown.body.options.find((o) => o.text.en === correct.options[0]!.text.en)!.id
  }
  const submitted = await server.api('POST', `/api/quizzes/${quizId}/submit/`, { answers }, token)
  expect(submitted.status).toBe(200)
  expect(start.status).toBe(200)
}

beforeAll(async () => {
  server = journey.server
  const adminToken = await createAdmin(server, ADMIN)
  quizId = await createQuiz(server, adminToken, QUIZ)
  server.cli('create-learners', ['--count', '3', '--prefix', 'learner', '--password', PASSWORD])
  await othersAttempt('learner2', 3) // 3.00, above
  await othersAttempt('learner3', 0) // 0.00, below
})

describe('the learning loop at 360 px', () => {
  it('finishes a quiz, reads rank and topics, practises a wrong question twice, and reads it all in Nepali', async () => {
    const page = await journey.open({
      viewport: PHONE,
      user: { username: 'learner1', password: PASSWORD },
    })
    const option = (text: string) => page.getByRole('radio', { name: new RegExp(`^[A-D]?\\.?\\s*${text}(\\s|$)`) })

    // The exam: question 1 right, question 2 wrong, question 3 left unanswered: 1 - 0.2 = 0.80.
    await page.goto(`/quiz/${quizId}/instructions`)
    await page.getByRole('link', { name: enQuiz.instructions.start }).click()
    await page.getByText('Two plus two?').waitFor()
    await option('Four').check()
    await page.getByRole('button', { name: enQuiz.next, exact: true }).click()
    await page.getByText('How many sides has a triangle?').waitFor()
    await option('Four sides').check()
    await page.getByRole('button', { name: enQuiz.next, exact: true }).click()
    await page.getByText('How many sides has a square?').waitFor()
    const score = await submitExam(page)
    await score.getByText('0.80', { exact: true }).waitFor()

    // The report card: rank 2 of 3 (learner2 scored more), topics in order, and the advice for Geometry.
    const token = (await server.login('learner1', PASSWORD)).access
    const [result] = (await server.api<{ attempts: { id: number }[] }[]>('GET', '/api/results/', undefined, token)).body
    const attemptId = result!.attempts[0]!.id
    await page.goto(`/results/${attemptId}`)
    const panel = page.getByRole('region', { name: enResults.standing.title })
    await panel.waitFor()
    const figure = (label: string) => panel.getByText(label, { exact: true }).locator('xpath=following-sibling::dd')
    expect(await figure(enResults.standing.rank).textContent()).toBe(
      fill(enResults.standing.rank_of, { rank: 2, participants: 3 }),
    )
    expect(await figure(enResults.standing.percentile).textContent()).toBe('50')
    expect(await figure(enResults.standing.average).textContent()).toBe('1.27')
    expect(await figure(enResults.standing.highest).textContent()).toBe('3.00')
    expect(await figure(enResults.standing.negative_marks).textContent()).toBe('0.20')
    const topicRows = panel.getByRole('row')
    expect(await topicRows.nth(1).textContent()).toBe('Algebra1001.00')
    expect(await topicRows.nth(2).textContent()).toBe('Geometry011-0.20')
    expect(await panel.getByRole('note').textContent()).toContain('In Geometry, wrong answers cost you more marks')
    expect(await page.locator('.analysis__row').nth(0).textContent()).toMatch(/Time spent: \d+ s/)
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'learning-report-en-phone')

    // Practice: the two mistakes are due; question 2 wrong again (back to box 1), question 3 right, question 2 right.
    const practiceLink = page.getByRole('link', { name: new RegExp(`^${enNav.practice}`) })
    expect(await practiceLink.textContent()).toBe(`${enNav.practice}2`)
    await practiceLink.click()
    await waitForHeading(page, enPractice.title)
    await page.getByText('How many sides has a triangle?').waitFor()
    await page.getByRole('button', { name: /Four sides/ }).click()
    await page.getByText(enPractice.wrong).waitFor()
    expect(await page.getByText('Tri means three.').isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: /^Three/ }).getAttribute('class')).toContain(
      'practice-option--correct',
    )
    await expectAccessible(page)
    await screenshot(page, 'learning-practice-feedback-en-phone')
    await page.getByRole('button', { name: enPractice.next }).click()
    await page.getByText('How many sides has a square?').waitFor()
    await page.getByRole('button', { name: /Four equal sides/ }).click()
    await page.getByText(new RegExp(enPractice.right)).waitFor()
    await page.getByRole('button', { name: enPractice.next }).click()
    await page.getByText('How many sides has a triangle?').waitFor()
    await page.getByRole('button', { name: /^Three/ }).click()
    await page.getByText(new RegExp(enPractice.right)).waitFor()
    await page.getByRole('button', { name: enPractice.next }).click()
    await page.getByText(/Nothing to practise now. Your next card is due on/).waitFor()
    await expectNoSidewaysScroll(page)

    // Nepali: the report card and My Progress in Bikram Sambat with Devanagari digits.
    await page.locator('.language-switcher__button[lang="ne"]').click()
    await page.goto(`/results/${attemptId}`)
    const nePanel = page.getByRole('region', { name: neResults.standing.title })
    await nePanel.waitFor()
    expect(
      await nePanel
        .getByText(neResults.standing.rank, { exact: true })
        .locator('xpath=following-sibling::dd')
        .textContent(),
    ).toBe('३ मध्ये २')
    expect(await page.locator('.report-summary time').textContent()).toMatch(BS_DATE_TIME)
    expect(await page.locator('main').textContent()).not.toMatch(/[0-9]/)
    expect(await page.locator('main').textContent()).toContain('०.८०')
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'learning-report-ne-phone')

    await page.getByRole('link', { name: neNav.my_progress, exact: true }).click()
    await waitForHeading(page, neProgress.title)
    const trend = page.getByRole('img', { name: neProgress.trend.chart_label })
    expect(await trend.textContent()).toMatch(new RegExp(`२०८[३४] (${BS_MONTHS}) [०-९]{1,2}`))
    expect(await page.locator('main').textContent()).toMatch(BS_DATE_TIME)
    expect(await page.locator('main').textContent()).not.toMatch(/[0-9]/)
    expect(await page.getByRole('img', { name: neProgress.topics.chart_label }).textContent()).toContain('Geometry')
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'learning-progress-ne-phone')

    // English is unchanged: Gregorian dates, Latin digits.
    await page.locator('.language-switcher__button[lang="en"]').click()
    await waitForHeading(page, enProgress.title)
    expect(await page.locator('main').textContent()).toMatch(/\d{1,2} [A-Z][a-z]{2} 20\d\d/)
  })
})
