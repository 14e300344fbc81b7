import { beforeAll, describe, expect, it } from 'vitest'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import {
  PHONE,
  createAdmin,
  createQuiz,
  expectAccessible,
  expectNoSidewaysScroll,
  screenshot,
  setUpJourney,
  QUIZ_ADMIN as ADMIN,
  QUIZ_LEARNER_PASSWORD as PASSWORD,
} from './fixtures'
import { languageFindings } from '../web/src/test/lang-of-parts'

// Tables in questions (issue 61): a wide timetable drawn as a table on the exam screen at 360 px, scrolling inside
// its own box while the page never scrolls sideways, its cells read with their column headers.

const ROWS = ['Kathmandu', 'Pokhara', 'Biratnagar', 'Nepalgunj', 'Dhangadhi']
const TABLE = [
  '| Bus | From | To | Leaves | Arrives | Fare (Rs) | Seats | Stops |',
  '|---|---|---|---:|---:|---:|---:|---:|',
  ...ROWS.map(
    (city, n) =>
      `| ${n + 1} | ${city} | Butwal Bus Park | 0${n + 6}:00 | 1${n}:30 | ${1200 + n * 150} | 35 | ${n + 3} |`,
  ),
].join('\n')
const QUIZ = {
  title: { en: 'Timetable Mock', ne: 'समय तालिका नमूना' },
  duration_minutes: 30,
  allowed_attempts: 2,
  questions: [
    {
      text: { en: `Read the timetable.\n${TABLE}\nWhich bus leaves first?`, ne: '' },
      topic: 'Data interpretation',
      options: [
        { text: { en: 'Bus 1', ne: '' }, is_correct: true },
        { text: { en: 'Bus 5', ne: '' }, is_correct: false },
      ],
    },
  ],
}

const journey = setUpJourney()
let quizId: number

beforeAll(async () => {
  const adminToken = await createAdmin(journey.server, ADMIN)
  quizId = await createQuiz(journey.server, adminToken, QUIZ)
  journey.server.cli('create-learners', ['--count', '1', '--prefix', 'reader', '--password', PASSWORD])
})

describe('tables in questions', () => {
  it('draws a wide table at 360 px scrolling inside its box, with column headers, in Nepali too', async () => {
    const page = await journey.open({ viewport: PHONE, user: { username: 'reader1', password: PASSWORD } })
    await page.goto(`/quiz/${quizId}/instructions`)
    await page.getByRole('link', { name: enQuiz.instructions.start }).click()
    const table = page.locator('.question__text table')
    await table.waitFor()
    const headers = await table.getByRole('columnheader').allInnerTexts()
    expect(headers[0]).toBe('Bus')
    expect(headers).toHaveLength(8)
    expect(await table.getByRole('row').count()).toBe(ROWS.length + 1)
    const box = page.locator('.question__text .q-table')
    const { scroll, client } = await box.evaluate((element) => ({
      scroll: element.scrollWidth,
      client: element.clientWidth,
    }))
    expect(scroll).toBeGreaterThan(client)
    expect(client).toBeLessThanOrEqual(PHONE.width)
    await expectNoSidewaysScroll(page)
    await expectAccessible(page)
    expect(await page.locator('main').evaluate(languageFindings, 'en' as const)).toEqual([])
    await screenshot(page, 'table-quiz-en-phone')
    // The box scrolls by keyboard: focus it and press the right arrow.
    await box.focus()
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => box.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0)

    // An English-only question on a Nepali page is read with the English voice.
    const nepali = await journey.open({
      viewport: PHONE,
      language: 'ne',
      user: { username: 'reader1', password: PASSWORD },
    })
    await nepali.goto(new URL(page.url()).pathname)
    await nepali.locator('.question__text table').waitFor()
    expect(await nepali.locator('.question__text').getAttribute('lang')).toBe('en')
    await expectNoSidewaysScroll(nepali)
    await expectAccessible(nepali)
    // Language of parts (WCAG 3.1.2): no English text on this Nepali screen without its lang (issue 61).
    expect(await nepali.locator('main').evaluate(languageFindings, 'ne' as const)).toEqual([])
    await screenshot(nepali, 'table-quiz-ne-phone')
  })
})
