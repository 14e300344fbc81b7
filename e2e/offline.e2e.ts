import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import enResults from '../web/src/i18n/locales/en/results.json'
import neQuiz from '../web/src/i18n/locales/ne/quiz.json'
import {
  PHONE,
  QUIZ_ADMIN as ADMIN,
  QUIZ_LEARNER_PASSWORD as PASSWORD,
  closeExamPalette,
  createAdmin,
  examPalette,
  createQuiz,
  expectNoSidewaysScroll,
  interpolate as fill,
  screenshot,
  setUpJourney,
  startNetworkLink,
  submitExam,
  type NetworkLink,
} from './fixtures'

// Issue 12 (decision 019): an exam that survives a lost connection and a reload. The learner starts a quiz online;
// the service worker and the device's copy of the attempt then carry it through going offline, a reload, the tab
// closed and reopened, and the time running out, and the answers reach the server when the connection returns.

const TOTAL = 8
const questionText = (n: number) => `Offline question ${n}: which is right?`
const optionText = (n: number, k: number) => `Choice ${'ABCD'[k]} of question ${n}`

function quizJson(title: string, durationMinutes: number) {
  return {
    title: { en: title, ne: `${title} (नेपाली)` },
    duration_minutes: durationMinutes,
    allowed_attempts: 2,
    questions: Array.from({ length: TOTAL }, (_, index) => ({
      text: { en: questionText(index + 1) },
      // Every question has an image: it must come back from the device offline like the text.
      image: {
        svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect width="40" height="20" fill="#dbeafe"/><text x="4" y="15">${index + 1}</text></svg>`,
        caption: { en: `Figure ${index + 1}` },
      },
      // Option A is the correct one.
      options: [0, 1, 2, 3].map((k) => ({ text: { en: optionText(index + 1, k) }, is_correct: k === 0 })),
    })),
  }
}

const journey = setUpJourney()
let adminToken: string
let learners = 0
/** The pages reach the server through it, so that offline means no request gets there. */
let network: NetworkLink

beforeAll(async () => {
  adminToken = await createAdmin(journey.server, ADMIN)
  network = await startNetworkLink(journey.server)
})
afterAll(() => network.close())

/** The phone loses its network: the browser says so, and nothing it sends arrives. */
async function goOffline(page: Page) {
  network.cut()
  await page.context().setOffline(true)
}

async function goOnline(page: Page) {
  network.restore()
  await page.context().setOffline(false)
}

/** A learner made by the CLI (registration is another journey's subject). */
function newLearner() {
  learners += 1
  const prefix = `offline${learners}x`
  journey.server.cli('create-learners', ['--count', '1', '--prefix', prefix, '--password', PASSWORD])
  return { username: `${prefix}1`, password: PASSWORD }
}

const texts = { en: enQuiz, ne: neQuiz }

/** Opens the quiz (starting the attempt) and waits until the worker controls the page and the paper is kept. */
async function startQuiz(page: Page, quizId: number, language: 'en' | 'ne') {
  await page.goto(`/quiz/${quizId}`)
  await page.getByText(texts[language].kept.all, { exact: true }).waitFor()
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve))
    }
  })
}

const question = (page: Page, n: number) => page.getByText(questionText(n), { exact: true })

/** The navigator's button of question n (its name is in the page's language), in the phone's palette sheet. */
const navButton = async (page: Page, n: number) => (await examPalette(page)).locator('.navigator__number').nth(n - 1)

async function answer(page: Page, n: number) {
  await (await navButton(page, n)).click()
  await question(page, n).waitFor()
  expect(await page.getByRole('img', { name: `Figure ${n}` }).isVisible()).toBe(true)
  await page.getByRole('radio', { name: new RegExp(`^${optionText(n, 0)}`) }).check()
}

/** A new learner starts a new quiz on a phone, goes offline and answers questions 1 to 3: the banner counts three. */
async function answerThreeOffline(title: string, language: 'en' | 'ne') {
  const quizId = await createQuiz(journey.server, adminToken, quizJson(title, 20))
  const page = await journey.open({
    viewport: PHONE,
    user: newLearner(),
    baseUrl: network.baseUrl,
    ...(language === 'ne' && { language }),
  })
  await startQuiz(page, quizId, language)
  await goOffline(page)
  for (const n of [1, 2, 3]) await answer(page, n)
  await page.getByText(fill(texts[language].save.offline_other, { count: 3 }), { exact: true }).waitFor()
  await screenshot(page, `offline-${language}-phone-banner`)
  return { quizId, page }
}

async function attemptAnswers(token: string, quizId: number) {
  const { body } = await journey.server.api<{ questions: { id: number }[]; attempt: { answers: object } }>(
    'GET',
    `/api/quizzes/${quizId}/`,
    undefined,
    token,
  )
  return body
}

/** The figure beside a label in a list of terms (the score dialog's counts). */
const termValue = async (container: Locator, label: string) =>
  (await container.getByText(label, { exact: true }).locator('xpath=following-sibling::dd').textContent())?.trim()

/** Submits, then checks the score dialog and the report: the five answers of questions 1 to 5, all right. */
async function submitAndReadReport(page: Page) {
  const score = await submitExam(page)
  await score.waitFor()
  expect(await termValue(score, enQuiz.score.correct)).toBe('5')
  expect(await termValue(score, enQuiz.score.unanswered)).toBe(String(TOTAL - 5))
  await score.getByRole('link', { name: enQuiz.score.view_report }).click()
  const rows = page.locator('.analysis__row')
  await rows.first().waitFor()
  const badges = await rows.locator('.badge').allTextContents()
  expect(badges).toEqual([
    ...Array<string>(5).fill(enResults.status.correct),
    ...Array<string>(3).fill(enResults.status.unanswered),
  ])
  // Nothing of the attempt is left on the device.
  const left = await page.evaluate(async () => {
    const databases = await indexedDB.databases()
    const keys = Object.keys(localStorage).filter((key) => key.startsWith('quiz-'))
    const stored = await new Promise<number>((resolve) => {
      const open = indexedDB.open('quiz-offline')
      open.onsuccess = () => {
        const request = open.result.transaction('attempts').objectStore('attempts').count()
        request.onsuccess = () => resolve(request.result)
      }
    })
    return { keys, stored, named: databases.map((database) => database.name) }
  })
  expect(left).toEqual({ keys: [], stored: 0, named: ['quiz-offline'] })
}

describe('an exam without a connection', () => {
  it('(1) goes offline, answers three, reloads, answers two more, comes back online, submits: the report has all five', async () => {
    const { quizId, page } = await answerThreeOffline('Offline reload', 'en')
    const before = Number((await page.getByRole('timer').textContent())!.split(':')[0])

    // The reload is served by the worker and the device: the browser's error page never shows.
    page.on('dialog', (dialog) => void dialog.accept())
    await page.reload()
    await question(page, 3).waitFor()
    expect(await page.getByText(enQuiz.offline, { exact: true }).isVisible()).toBe(true)
    expect(await page.getByRole('radio', { name: new RegExp(`^${optionText(3, 0)}`) }).isChecked()).toBe(true)
    const after = Number((await page.getByRole('timer').textContent())!.split(':')[0])
    expect(after).toBeLessThanOrEqual(before)
    expect(after).toBeGreaterThanOrEqual(before - 1)
    for (const n of [4, 5]) await answer(page, n)
    await page.getByText(fill(enQuiz.save.offline_other, { count: 5 }), { exact: true }).waitFor()
    const token = (await page.evaluate(() => localStorage.getItem('accessToken')))!
    expect((await attemptAnswers(token, quizId)).attempt.answers).toEqual({})

    await goOnline(page)
    await page.getByText(fill(enQuiz.back_online.sent_other, { count: 5 }), { exact: true }).waitFor()
    await screenshot(page, 'offline-en-phone-back-online')
    expect(Object.keys((await attemptAnswers(token, quizId)).attempt.answers)).toHaveLength(5)
    await submitAndReadReport(page)
  })

  it('(2) the same with the tab closed offline and the app opened again', async () => {
    const { quizId, page: first } = await answerThreeOffline('Offline reopen', 'ne')
    const context = first.context()
    await first.close({ runBeforeUnload: false })

    // Opened again from the home screen: the start address, then the quiz from the dashboard's link is what a
    // learner does; the quiz address itself is what the installed app restores.
    const page = await context.newPage()
    await page.goto(`/quiz/${quizId}`)
    await question(page, 1).waitFor()
    expect(await page.getByText(neQuiz.offline, { exact: true }).isVisible()).toBe(true)
    for (const n of [1, 2, 3]) {
      expect(await (await navButton(page, n)).getAttribute('class')).toContain('palette--answered')
    }
    await closeExamPalette(page)
    expect(await page.getByRole('timer').textContent()).toMatch(/^[०-९]+:[०-९]{2}$/)
    for (const n of [4, 5]) await answer(page, n)

    await goOnline(page)
    await page.getByText(fill(neQuiz.back_online.sent_other, { count: 5 }), { exact: true }).waitFor()
    await screenshot(page, 'offline-ne-phone-back-online')
    await expectNoSidewaysScroll(page)
    await page.getByRole('button', { name: 'English' }).first().click()
    await submitAndReadReport(page)
  })

  it('(3) time runs out offline: the screen says the answers go when the connection returns, and they do', async () => {
    const quizId = await createQuiz(journey.server, adminToken, quizJson('Offline time up', 1))
    const learner = newLearner()
    for (const language of ['en', 'ne'] as const) {
      // Both languages' screens for people to look at; the English run checks the result too.
      const user = language === 'en' ? learner : newLearner()
      const page = await journey.open({ viewport: PHONE, user, language, baseUrl: network.baseUrl })
      await page.clock.install()
      await startQuiz(page, quizId, language)
      await goOffline(page)
      await page.getByRole('radio', { name: new RegExp(`^${optionText(1, 0)}`) }).check()
      // The page's clock runs a minute ahead; the server's has hardly moved, so the answers count in full.
      await page.clock.fastForward('01:05')
      await page.getByText(texts[language].time_up_offline, { exact: true }).waitFor()
      expect(await page.getByRole('radio', { name: new RegExp(`^${optionText(1, 1)}`) }).isDisabled()).toBe(true)
      await screenshot(page, `offline-${language}-phone-time-up`)
      if (language === 'ne') continue

      await goOnline(page)
      const score = page.getByRole('dialog', { name: enQuiz.score.time_up_title })
      await score.waitFor()
      expect(await termValue(score, enQuiz.score.correct)).toBe('1')
      const token = (await page.evaluate(() => localStorage.getItem('accessToken')))!
      const { body } = await journey.server.api<{ title: unknown; attempts: { score: number }[] }[]>(
        'GET',
        '/api/results/',
        undefined,
        token,
      )
      expect(body[0]!.attempts.map((attempt) => attempt.score)).toEqual([1])
    }
  })
})
