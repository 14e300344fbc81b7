import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import enNav from '../web/src/i18n/locales/en/nav.json'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import neNav from '../web/src/i18n/locales/ne/nav.json'
import neQuiz from '../web/src/i18n/locales/ne/quiz.json'
import {
  DESKTOP,
  PHONE,
  closeExamPalette,
  createAdmin,
  examPalette,
  showSiteNavigation,
  createQuiz,
  expectAccessible,
  expectNoSidewaysScroll,
  interpolate as fill,
  screenshot,
  setUpJourney,
  signIn,
  type TestServer,
  OPTION_SVG,
  QUIZ_ADMIN as ADMIN,
  QUIZ_LEARNER_PASSWORD as LEARNER_PASSWORD,
  digits,
  latinDigits,
  optionText,
  questionText,
  radioName,
} from './fixtures'

// The learner's quiz journey of SPEC.md and WEB.md ("Quiz screen") against the real server: instructions,
// start, answers, the navigator across pages, a reload that keeps answers and time, a dropped connection,
// submit, auto-submit, and a learner with no attempts left; in English and Nepali, at 360x740 and desktop.
// The server is called directly only to set up users and quizzes and to check what it stored.

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 60"><rect width="120" height="60" fill="#dbeafe"/><polygon points="60,8 108,52 12,52" fill="#1d4ed8"/></svg>'

const TOTAL = 12

function quizJson(title: string, extra: Record<string, unknown> = {}) {
  return {
    title: { en: title, ne: `${title} (नेपाली)` },
    duration_minutes: 10,
    allowed_attempts: 3,
    difficulty: 'medium',
    ...extra,
    questions: Array.from({ length: TOTAL }, (_, index) => {
      const number = index + 1
      return {
        text: { en: questionText(number, 'en'), ne: questionText(number, 'ne') },
        hint: number === 1 ? { en: 'The triangle points up.', ne: 'त्रिभुज माथि फर्केको छ।' } : undefined,
        image: number === 1 ? { svg: SVG, caption: { en: 'A blue triangle', ne: 'नीलो त्रिभुज' } } : undefined,
        // Option A is always the correct one.
        options: [0, 1, 2, 3].map((k) => ({
          text: { en: optionText(number, k, 'en'), ne: optionText(number, k, 'ne') },
          is_correct: k === 0,
          image:
            number === 1 && k === 0 ? { svg: OPTION_SVG, caption: { en: 'Green square', ne: 'हरियो वर्ग' } } : undefined,
        })),
      }
    }),
  }
}

const texts = { en: { quiz: enQuiz, nav: enNav }, ne: { quiz: neQuiz, nav: neNav } }

const journey = setUpJourney()
let server: TestServer
let adminToken: string
let mainQuizId: number

async function openAs(username: string, language: 'en' | 'ne', viewport: { width: number; height: number }) {
  const page = await journey.open({ viewport, language })
  const tokens = await signIn(page, server, username, LEARNER_PASSWORD)
  return { context: page.context(), page, token: tokens.access }
}

async function secondsOnTimer(page: Page) {
  const text = (await page.getByRole('timer').textContent()) ?? ''
  const match = /^(\d+):(\d\d)$/.exec(latinDigits(text.trim()))
  expect(match, `timer shows m:ss, got "${text}"`).not.toBeNull()
  return Number(match![1]) * 60 + Number(match![2])
}

beforeAll(async () => {
  server = journey.server
  adminToken = await createAdmin(server, ADMIN)
  server.cli('create-learners', ['--count', '8', '--prefix', 'learner', '--password', LEARNER_PASSWORD])
  mainQuizId = await createQuiz(server, adminToken, quizJson('General Knowledge'))
})

// Each language and each size once: Nepali on a phone, as most learners sit, and English on a desktop. The other
// pairs are sat by the exam-screen, nepali-first-day and accessibility journeys.
const journeys = [
  { language: 'ne' as const, size: 'phone', viewport: PHONE, learner: 'learner2' },
  { language: 'en' as const, size: 'desktop', viewport: DESKTOP, learner: 'learner3' },
]

describe.each(journeys)('taking a quiz ($language, $size)', ({ language, size, viewport, learner }) => {
  const { quiz: q, nav } = texts[language]
  const shot = (name: string) => `quiz-${name}-${language}-${size}`

  it('reads the instructions, answers across navigator pages, survives a reload and a dropped connection, and submits', async () => {
    const { context, page, token } = await openAs(learner, language, viewport)
    const question = (number: number) => questionText(number, language)
    const option = (number: number, k: number) =>
      page.getByRole('radio', { name: radioName(optionText(number, k, language)) })
    // Answered, or (for a question not shown yet) not visited: the palette of WEB.md "Exam screen" (on a phone in
    // its sheet, which picking a question closes).
    const navButton = async (number: number, answered: boolean) =>
      (await examPalette(page)).getByRole('button', {
        name: fill(answered ? q.navigator.question_answered : q.navigator.question_not_visited, { number }),
        exact: true,
      })
    const seeInPalette = async (number: number, answered: boolean) => {
      await (await navButton(number, answered)).waitFor()
      await closeExamPalette(page)
    }

    // Instructions: both titles, duration, marking, attempts, the rules and the legend.
    await page.goto(`/quiz/${mainQuizId}/instructions`)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('General Knowledge')
    expect(await page.getByText('General Knowledge (नेपाली)').isVisible()).toBe(true)
    expect(await page.getByText(fill(q.instructions.minutes_other, { count: 10 })).isVisible()).toBe(true)
    expect(await page.getByText(fill(q.instructions.attempts_value, { remaining: 3, allowed: 3 })).isVisible()).toBe(
      true,
    )
    // Marks in the language's digits (WEB.md), now that the list carries the paper's one section before a start.
    for (const mark of ['+1', '-0.2'])
      expect(await page.getByText(digits(mark, language), { exact: true }).isVisible()).toBe(true)
    for (const line of [
      q.instructions.rule_timer,
      q.instructions.rule_irreversible,
      q.instructions.rule_review,
      q.legend.not_visited,
      q.legend.not_answered,
      q.legend.answered,
      q.legend.marked,
      q.legend.answered_marked,
      q.legend.current,
    ]) {
      expect(await page.getByText(line, { exact: true }).isVisible()).toBe(true)
    }
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, shot('instructions'))

    // Start.
    await page.getByRole('link', { name: q.instructions.start }).click()
    await page.waitForURL(`**/quiz/${mainQuizId}`)
    await page.getByText(question(1), { exact: true }).waitFor()
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      language === 'en' ? 'General Knowledge' : 'General Knowledge (नेपाली)',
    )
    const started = await secondsOnTimer(page)
    expect(started).toBeGreaterThan(9 * 60)
    expect(started).toBeLessThanOrEqual(10 * 60)
    const image = page.getByRole('img', { name: language === 'en' ? 'A blue triangle' : 'नीलो त्रिभुज' })
    expect(await image.getAttribute('src')).toMatch(/^data:image\/svg\+xml/)
    // Option A carries an image with a visible caption.
    expect(await page.getByText(language === 'en' ? 'Green square' : 'हरियो वर्ग', { exact: true }).isVisible()).toBe(
      true,
    )
    expect(await page.locator('.option img').count()).toBe(1)
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, shot('question'))

    // Q1: A (right). Next, Q2: C (wrong). Navigator to page 2, Q12: A (right).
    await option(1, 0).check()
    await seeInPalette(1, true)
    await page.getByRole('button', { name: q.next, exact: true }).click()
    await page.getByText(question(2), { exact: true }).waitFor()
    await option(2, 2).check()
    await (await examPalette(page)).getByRole('button', { name: q.navigator.next_page }).click()
    await (await navButton(12, false)).click()
    await page.getByText(question(12), { exact: true }).waitFor()
    await option(12, 0).check()
    expect(await (await navButton(12, true)).getAttribute('aria-current')).toBe('step')
    await closeExamPalette(page)
    await page.getByText(q.save.saved, { exact: true }).waitFor()
    await expectNoSidewaysScroll(page)
    await screenshot(page, shot('navigator-page-2'))

    // In-app navigation away asks first, in the app's own dialog (on a phone, the site's links are behind Menu).
    await showSiteNavigation(page)
    await page.getByRole('link', { name: nav.dashboard, exact: true }).click()
    const leave = page.getByRole('dialog', { name: q.leave.title })
    await leave.waitFor()
    expect(await leave.getByText(q.leave.message).isVisible()).toBe(true)
    await expectAccessible(page)
    await screenshot(page, shot('leave-dialog'))
    await leave.getByRole('button', { name: q.leave.stay }).click()
    await leave.waitFor({ state: 'detached' })
    expect(new URL(page.url()).pathname).toBe(`/quiz/${mainQuizId}`)

    // Reload: the browser's own prompt, then the same question, the answers and the time (not restarted).
    const beforeReload = await secondsOnTimer(page)
    const dialogs: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type())
      void dialog.accept()
    })
    await page.reload()
    await page.getByText(question(12), { exact: true }).waitFor()
    expect(dialogs).toContain('beforeunload')
    expect(await option(12, 0).isChecked()).toBe(true)
    const afterReload = await secondsOnTimer(page)
    expect(afterReload).toBeLessThanOrEqual(beforeReload)
    expect(afterReload).toBeGreaterThan(beforeReload - 30)
    await (await examPalette(page)).getByRole('button', { name: q.navigator.previous_page }).click()
    await (await navButton(1, true)).waitFor()
    await (await navButton(2, true)).click()
    await page.getByText(question(2), { exact: true }).waitFor()
    expect(await option(2, 2).isChecked()).toBe(true)

    // Offline: change Q1 to D. It waits on the device, then reaches the server when the connection returns.
    await (await navButton(1, true)).click()
    await page.getByText(question(1), { exact: true }).waitFor()
    await context.setOffline(true)
    await option(1, 3).check()
    await page.getByText(fill(q.save.offline_one, { count: 1 }), { exact: true }).waitFor()
    expect(await page.getByText(q.offline, { exact: true }).isVisible()).toBe(true)
    await screenshot(page, shot('offline'))
    const resumed = async () =>
      (
        await server.api<{ questions: { id: number }[]; attempt: { answers: Record<string, number> } }>(
          'GET',
          `/api/quizzes/${mainQuizId}/`,
          undefined,
          token,
        )
      ).body
    const firstQuestionId = String((await resumed()).questions[0]!.id)
    const stillOld = (await resumed()).attempt.answers[firstQuestionId]
    await context.setOffline(false)
    await page.getByText(q.save.saved, { exact: true }).waitFor()
    const saved = (await resumed()).attempt.answers[firstQuestionId]
    expect(saved).not.toBe(stillOld)
    expect(await option(1, 3).isChecked()).toBe(true)

    // Submit: confirm dialog (Cancel / Confirm), then the score: Q1 wrong, Q2 wrong, Q12 right = 1 - 0.2 - 0.2.
    await page.getByRole('button', { name: q.submit_quiz }).click()
    const confirm = page.getByRole('dialog', { name: q.confirm.title })
    await confirm.waitFor()
    expect(await confirm.getByText(fill(q.confirm.answered, { answered: 3, total: TOTAL })).isVisible()).toBe(true)
    await expectAccessible(page)
    await screenshot(page, shot('confirm-dialog'))
    await confirm.getByRole('button', { name: q.confirm.confirm }).click()
    const score = page.getByRole('dialog', { name: q.score.title })
    await score.waitFor()
    expect(await score.getByText(digits('0.60', language), { exact: true }).isVisible()).toBe(true)
    const count = async (label: string) =>
      (await score.getByText(label, { exact: true }).locator('xpath=following-sibling::dd').textContent())?.trim()
    expect(await count(q.score.correct)).toBe(digits('1', language))
    expect(await count(q.score.incorrect)).toBe(digits('2', language))
    expect(await count(q.score.unanswered)).toBe(digits('9', language))
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, shot('score-dialog'))

    // Nothing is left on the device, and the way out is not blocked.
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('quiz-answers:'))),
    ).toEqual([])
    await score.getByRole('button', { name: q.back_to_dashboard }).click()
    await page.waitForURL((url) => url.pathname === '/')
    const list = await server.api<{ id: number; remaining_attempts: number }[]>(
      'GET',
      '/api/quizzes/',
      undefined,
      token,
    )
    expect(list.body.find((entry) => entry.id === mainQuizId)?.remaining_attempts).toBe(2)
  })

  it('submits by itself when the time runs out', async () => {
    // The quiz closes soon, so the attempt's deadline is near (deadline = min(start + duration, end)). Soon enough
    // to wait for, late enough that a loaded machine still opens the exam and saves the answer well before it (an
    // answer saved after the deadline is refused by design, and 12 s once left too little).
    const CLOSES_IN_SECONDS = 30
    const quizId = await createQuiz(
      server,
      adminToken,
      quizJson(`Closing Soon ${language} ${size}`, {
        start_time: new Date(Date.now() - 60_000).toISOString(),
        end_time: new Date(Date.now() + CLOSES_IN_SECONDS * 1000).toISOString(),
      }),
    )
    const { page } = await openAs(learner, language, viewport)
    await page.goto(`/quiz/${quizId}`)
    await page.getByText(questionText(1, language), { exact: true }).waitFor()
    expect(await secondsOnTimer(page)).toBeLessThanOrEqual(CLOSES_IN_SECONDS)
    await page.getByRole('radio', { name: radioName(optionText(1, 0, language)) }).check()
    const score = page.getByRole('dialog', { name: q.score.time_up_title })
    await score.waitFor({ timeout: (CLOSES_IN_SECONDS + 15) * 1000 })
    expect(await score.getByText(digits('1.00', language), { exact: true }).isVisible()).toBe(true)
    await expectAccessible(page)
    await screenshot(page, shot('auto-submitted'))
  })

  it('shows a disabled Start when no attempts are left', async () => {
    const quizId = await createQuiz(
      server,
      adminToken,
      quizJson(`One Try ${language} ${size}`, { allowed_attempts: 1 }),
    )
    const username = `learner${journeys.findIndex((entry) => entry.learner === learner) + 5}`
    const token = (await server.login(username, LEARNER_PASSWORD)).access
    expect((await server.api('GET', `/api/quizzes/${quizId}/`, undefined, token)).status).toBe(200)
    expect((await server.api('POST', `/api/quizzes/${quizId}/submit/`, { answers: {} }, token)).status).toBe(200)

    const { page } = await openAs(username, language, viewport)
    await page.goto(`/quiz/${quizId}/instructions`)
    await page.getByRole('alert').filter({ hasText: q.errors.no_attempts }).waitFor()
    const start = page.getByRole('button', { name: q.instructions.start })
    expect(await start.isDisabled()).toBe(true)
    expect(await page.getByText(fill(q.instructions.attempts_value, { remaining: 0, allowed: 1 })).isVisible()).toBe(
      true,
    )
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, shot('no-attempts'))

    // Going to the quiz address directly is refused too.
    await page.goto(`/quiz/${quizId}`)
    await page.getByRole('alert').filter({ hasText: q.errors.no_attempts }).waitFor()
    await expectAccessible(page)
  })
})
