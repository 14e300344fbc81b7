import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import enPractice from '../web/src/i18n/locales/en/practice.json'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import enResults from '../web/src/i18n/locales/en/results.json'
import {
  DESKTOP,
  PHONE,
  a11yViolations,
  createAdmin,
  createQuiz,
  setUpJourney,
  interpolate as fill,
  type Credentials,
  type TestServer,
  QUIZ_ADMIN as ADMIN,
  QUIZ_LEARNER_PASSWORD as PASSWORD,
} from './fixtures'

// Issue 47: every screen of the app, at 360 and 1280 px, in English and Nepali, has no violation of axe-core's WCAG
// 2.1 A and AA rules, of any impact; and a learner sits an exam, reads the report and practises a card with the
// keyboard alone.

const QUIZ = {
  title: { en: 'Kharidar Mock 1', ne: 'खरिदार नमूना १' },
  duration_minutes: 30,
  allowed_attempts: 3,
  questions: [
    ['Capital of Nepal?', 'नेपालको राजधानी?', 'Kathmandu', 'काठमाडौं', 'Pokhara', 'पोखरा'],
    ['Longest river of Nepal?', 'नेपालको सबैभन्दा लामो नदी?', 'Karnali', 'कर्णाली', 'Bagmati', 'बागमती'],
  ].map(([en, ne, rightEn, rightNe, wrongEn, wrongNe]) => ({
    text: { en, ne },
    topic: 'General knowledge',
    hint: { en: 'Look at a map.', ne: 'नक्सा हेर्नुहोस्।' },
    options: [
      { text: { en: rightEn, ne: rightNe }, is_correct: true },
      { text: { en: wrongEn, ne: wrongNe }, is_correct: false },
    ],
  })),
}

const journey = setUpJourney()
let server: TestServer
let quizId: number
let attemptId: number
const reader: Credentials = { username: 'reader1', password: PASSWORD }
const keyboardLearner: Credentials = { username: 'reader2', password: PASSWORD }

beforeAll(async () => {
  server = journey.server
  const adminToken = await createAdmin(server, ADMIN)
  quizId = await createQuiz(server, adminToken, QUIZ)
  server.cli('create-learners', ['--count', '2', '--prefix', 'reader', '--password', PASSWORD])
  // The reader's finished attempt, one answer wrong: a report card to read and a card to practise.
  const token = (await server.login(reader.username, reader.password)).access
  await server.api('GET', `/api/quizzes/${quizId}/`, undefined, token)
  const first = await server.api<{ id: number; options: { id: number }[] }>(
    'GET',
    `/api/quizzes/${quizId}/question/1/`,
    undefined,
    token,
  )
  const submitted = await server.api<{ attempt_id: number }>(
    'POST',
    `/api/quizzes/${quizId}/submit/`,
    { answers: { [first.body.id]: first.body.options[1]!.id } },
    token,
  )
  expect(submitted.status).toBe(200)
  attemptId = submitted.body.attempt_id
})

/** Opens a screen and waits until its heading is in and its data has come. */
async function show(page: Page, path: string) {
  await page.goto(path)
  await page.locator('main h1').first().waitFor()
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined)
}

const visitorScreens = ['/login', '/register', '/forgot-password']
const learnerScreens = () => [
  '/',
  `/quiz/${quizId}/instructions`,
  '/results',
  `/results/${attemptId}`,
  '/progress',
  '/practice',
  '/profile',
  '/plans',
  '/notifications',
]
const adminScreens = () => [
  '/admin',
  '/admin/quiz/create',
  '/admin/quiz/new',
  `/admin/quiz/${quizId}/edit`,
  `/admin/quiz/${quizId}/attempts`,
  `/admin/quiz/${quizId}/statistics`,
  `/admin/quiz/${quizId}/paper`,
  '/admin/bank',
  '/admin/import',
  '/admin/font-converter',
  '/admin/key-challenges',
  '/admin/learners',
  '/admin/plans',
  '/admin/payments',
  '/admin/audit',
]

describe('every screen with axe-core, WCAG 2.1 A and AA', () => {
  for (const [size, viewport] of [
    ['360 px', PHONE],
    ['1280 px', DESKTOP],
  ] as const) {
    for (const language of ['en', 'ne'] as const) {
      it(`has no violation at ${size} in ${language === 'en' ? 'English' : 'Nepali'}`, async () => {
        const found: string[] = []
        const check = async (page: Page, paths: string[]) => {
          for (const path of paths) {
            await show(page, path)
            for (const violation of await a11yViolations(page)) found.push(`${path}: ${violation}`)
          }
        }
        await check(await journey.open({ viewport, language }), visitorScreens)
        await check(await journey.open({ viewport, language, user: reader }), learnerScreens())
        await check(await journey.open({ viewport, language, user: ADMIN }), adminScreens())
        expect(found).toEqual([])
      })
    }
  }
})

/** Presses Tab until `target` has focus, as a keyboard user would (at most `limit` presses). */
async function tabTo(page: Page, target: Locator, limit = 60) {
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached ${target.toString()}`)
}

const focused = (target: Locator) => target.evaluate((element) => element === document.activeElement)

describe('the keyboard alone', () => {
  it('sits an exam, reads the report and practises a card', async () => {
    const page = await journey.open({ viewport: DESKTOP, user: keyboardLearner })
    await show(page, `/quiz/${quizId}/instructions`)
    await tabTo(page, page.getByRole('link', { name: enQuiz.instructions.start }))
    await page.keyboard.press('Enter')

    // The exam: moving there puts focus on its heading; question 1 answered wrong, question 2 right.
    await page.getByText('Capital of Nepal?').waitFor()
    // Tab enters a group of radios once, at its first option; the arrow keys move within it and choose.
    await tabTo(page, page.getByRole('radio', { name: /Kathmandu/ }))
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => page.getByRole('radio', { name: /Pokhara/ }).isChecked()).toBe(true)
    await tabTo(page, page.getByRole('button', { name: enQuiz.next, exact: true }))
    await page.keyboard.press('Enter')
    await page.getByText('Longest river of Nepal?').waitFor()
    await tabTo(page, page.getByRole('radio', { name: /Karnali/ }))
    await page.keyboard.press('Space')
    const submit = page.getByRole('button', { name: enQuiz.submit_quiz })
    await tabTo(page, submit)
    await page.keyboard.press('Enter')

    // The confirmation: Escape gives focus back to Submit; then confirmed from the keyboard.
    const confirm = page.getByRole('dialog', { name: enQuiz.confirm.title })
    await confirm.waitFor()
    await page.keyboard.press('Escape')
    await confirm.waitFor({ state: 'detached' })
    expect(await focused(submit)).toBe(true)
    await page.keyboard.press('Enter')
    await confirm.waitFor()
    await tabTo(page, confirm.getByRole('button', { name: enQuiz.confirm.confirm }))
    await page.keyboard.press('Enter')
    const score = page.getByRole('dialog', { name: enQuiz.score.title })
    await score.waitFor()
    await tabTo(page, score.getByRole('link', { name: enQuiz.score.view_report }))
    await page.keyboard.press('Enter')

    // The report: its heading takes focus, the title names the screen; a question's dialog opens and closes by
    // keyboard, and focus comes back to the question it was opened from.
    const heading = page.getByRole('heading', { name: QUIZ.title.en, level: 1 })
    await heading.waitFor()
    await expect.poll(() => focused(heading)).toBe(true)
    expect(await page.title()).toBe(`Report card: ${QUIZ.title.en} — Quiz Practice`)
    const firstRow = page.locator('.analysis__row').first()
    await tabTo(page, firstRow)
    await page.keyboard.press('Enter')
    const detail = page.getByRole('dialog', { name: fill(enResults.detail.title, { number: 1 }) })
    await detail.waitFor()
    await page.keyboard.press('Escape')
    await detail.waitFor({ state: 'detached' })
    expect(await focused(firstRow)).toBe(true)

    // Practice: the wrong answer is a card; after answering, focus is on Next card, not the top of the page.
    await show(page, '/practice')
    await page.getByText('Capital of Nepal?').waitFor()
    await tabTo(page, page.getByRole('button', { name: /Kathmandu/ }))
    await page.keyboard.press('Enter')
    await page.getByText(enPractice.right).waitFor()
    await expect.poll(() => focused(page.getByRole('button', { name: enPractice.next }))).toBe(true)
  })
})
