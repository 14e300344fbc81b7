import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import neQuiz from '../web/src/i18n/locales/ne/quiz.json'
import {
  DESKTOP,
  PHONE,
  closeExamPalette,
  createAdmin,
  examPalette,
  createQuiz,
  expectAccessible,
  expectNoSidewaysScroll,
  interpolate as fill,
  screenshot,
  setUpJourney,
  signIn,
  submitExam,
  type TestServer,
  digits,
  optionText,
  questionText,
  radioName,
} from './fixtures'

// WEB.md "Exam screen" and API.md "Exam feel" against the real server: the five-state palette, Mark for Review
// and Clear Response surviving a reload and a second device, the state counts before submitting, and shuffled
// papers that differ between learners and still score by option, never by position.

const ADMIN = { username: 'examadmin', password: 'Kathmandu-Exam-77', phone: '9800000101' }
const LEARNER_PASSWORD = 'Learner-pass-42'

/** `count` questions whose option A (by authored order) is the right one. */
function quizJson(title: string, count: number, extra: Record<string, unknown> = {}) {
  return {
    title: { en: title, ne: `${title} (नेपाली)` },
    duration_minutes: 20,
    allowed_attempts: 3,
    ...extra,
    questions: Array.from({ length: count }, (_, index) => ({
      text: { en: questionText(index + 1, 'en'), ne: questionText(index + 1, 'ne') },
      options: [0, 1, 2, 3].map((k) => ({
        text: { en: optionText(index + 1, k, 'en'), ne: optionText(index + 1, k, 'ne') },
        is_correct: k === 0,
      })),
    })),
  }
}

const texts = { en: enQuiz, ne: neQuiz }
type State = 'not_visited' | 'not_answered' | 'answered' | 'marked' | 'answered_marked'

const journey = setUpJourney()
let server: TestServer
let adminToken: string

beforeAll(async () => {
  server = journey.server
  adminToken = await createAdmin(server, ADMIN)
  server.cli('create-learners', ['--count', '6', '--prefix', 'examinee', '--password', LEARNER_PASSWORD])
})

async function open(username: string, language: 'en' | 'ne', viewport: { width: number; height: number }) {
  const page = await journey.open({ viewport, language })
  const tokens = await signIn(page, server, username, LEARNER_PASSWORD)
  return { page, token: tokens.access }
}

describe.each([
  { language: 'ne' as const, size: 'phone', viewport: PHONE, learner: 'examinee1' },
  { language: 'en' as const, size: 'desktop', viewport: DESKTOP, learner: 'examinee2' },
])('the exam screen ($language, $size)', ({ language, size, viewport, learner }) => {
  const q = texts[language]
  const shot = (name: string) => `exam-${name}-${language}-${size}`
  const stateKey: Record<State, string> = {
    not_visited: q.navigator.question_not_visited,
    not_answered: q.navigator.question_unanswered,
    answered: q.navigator.question_answered,
    marked: q.navigator.question_marked,
    answered_marked: q.navigator.question_answered_marked,
  }
  const paletteButton = async (page: Page, number: number, state: State) =>
    (await examPalette(page)).getByRole('button', { name: fill(stateKey[state], { number }), exact: true })
  // On a phone the palette is a sheet behind the counts button (issue 46): read, then closed again.
  const expectPalette = async (page: Page, states: State[]) => {
    for (const [index, state] of states.entries()) await (await paletteButton(page, index + 1, state)).waitFor()
    await closeExamPalette(page)
  }

  it('marks two questions, clears an answer, keeps the palette over a reload and on a second device, and counts states', async () => {
    const quizId = await createQuiz(server, adminToken, quizJson(`Palette ${language} ${size}`, 12))
    const { page, token } = await open(learner, language, viewport)
    const option = (number: number, k: number) =>
      page.getByRole('radio', { name: radioName(optionText(number, k, language)) })
    const showing = (number: number) => page.getByText(questionText(number, language), { exact: true }).waitFor()
    const mark = page.getByRole('button', { name: q.mark_for_review, exact: true })
    const clear = page.getByRole('button', { name: q.clear_response, exact: true })
    const next = page.getByRole('button', { name: q.next, exact: true })

    // The legend is on the instructions.
    await page.goto(`/quiz/${quizId}/instructions`)
    for (const line of Object.values(q.legend).filter((line) => line !== q.legend.title)) {
      await page.getByText(line, { exact: true }).waitFor()
    }
    await page.getByRole('link', { name: q.instructions.start }).click()
    await showing(1)
    await expectPalette(page, ['not_answered', 'not_visited', 'not_visited'])

    // Q1 answered (right) and marked; Q2 answered (wrong) then cleared; Q3 marked without an answer; Q4 answered (right).
    await option(1, 0).check()
    await mark.click()
    expect(await mark.getAttribute('aria-pressed')).toBe('true')
    await next.click()
    await showing(2)
    expect(await mark.getAttribute('aria-pressed')).toBe('false')
    expect(await clear.isDisabled()).toBe(true)
    await option(2, 1).check()
    await clear.click()
    expect(await option(2, 1).isChecked()).toBe(false)
    await next.click()
    await showing(3)
    await mark.click()
    await next.click()
    await showing(4)
    await option(4, 0).check()
    const palette: State[] = ['answered_marked', 'not_answered', 'marked', 'answered', 'not_visited']
    await expectPalette(page, palette)
    // The legend with counts on the quiz screen: in the palette's sheet on a phone, behind its summary on a desktop.
    const sheet = await examPalette(page)
    if (size === 'desktop') await page.getByText(q.legend.title).click()
    await sheet.getByText(q.legend.answered_marked, { exact: true }).waitFor()
    await expectAccessible(page)
    await screenshot(page, shot('palette'))
    await closeExamPalette(page)
    await page.getByText(q.save.saved, { exact: true }).waitFor()
    await expectNoSidewaysScroll(page)

    // The server holds the marks and visits in the attempt's order.
    const attempt = async () =>
      (
        await server.api<{
          questions: { id: number }[]
          attempt: { marked: number[]; visited: number[]; time_spent: Record<string, number> }
        }>('GET', `/api/quizzes/${quizId}/`, undefined, token)
      ).body
    await expect.poll(async () => (await attempt()).attempt.visited.length).toBe(4)
    const held = await attempt()
    const ids = held.questions.map((entry) => entry.id)
    expect(held.attempt.marked).toEqual([ids[0], ids[2]])
    expect(held.attempt.visited).toEqual(ids.slice(0, 4))

    // A reload shows the same palette (the tab's own storage is dropped, so it comes from the server).
    page.on('dialog', (dialog) => void dialog.accept())
    await page.evaluate(() => {
      for (const key of Object.keys(localStorage)) if (key.startsWith('quiz-answers:')) localStorage.removeItem(key)
    })
    await page.reload()
    await showing(4)
    await expectPalette(page, palette)
    expect(await option(4, 0).isChecked()).toBe(true)
    expect(await mark.getAttribute('aria-pressed')).toBe('false')

    // A second device shows it too.
    const other = await open(learner, language, viewport)
    await other.page.goto(`/quiz/${quizId}?q=3`)
    await other.page.getByText(questionText(3, language), { exact: true }).waitFor()
    await expectPalette(other.page, palette)
    expect(
      await other.page.getByRole('button', { name: q.mark_for_review, exact: true }).getAttribute('aria-pressed'),
    ).toBe('true')
    await other.page.close()

    // The submit confirmation counts each state; the marked, answered Q1 is scored like any other.
    await page.getByRole('button', { name: q.submit_quiz }).click()
    const confirm = page.getByRole('dialog', { name: q.confirm.title })
    await confirm.waitFor()
    const count = async (label: string) =>
      (await confirm.getByText(label, { exact: true }).locator('xpath=following-sibling::dd').textContent())?.trim()
    expect(await count(q.summary.answered)).toBe(digits('1', language))
    expect(await count(q.summary.answered_marked)).toBe(digits('1', language))
    expect(await count(q.summary.not_answered)).toBe(digits('1', language))
    expect(await count(q.summary.marked)).toBe(digits('1', language))
    expect(await count(q.summary.not_visited)).toBe(digits('8', language))
    await expectAccessible(page)
    await screenshot(page, shot('confirm'))
    await confirm.getByRole('button', { name: q.confirm.confirm }).click()
    const score = page.getByRole('dialog', { name: q.score.title })
    await score.waitFor()
    expect(await score.getByText(digits('2.00', language), { exact: true }).isVisible()).toBe(true)
  })
})

describe('a shuffled quiz', () => {
  const QUESTIONS = 30
  const SEEN = 5

  it('shows two learners different orders, and scores both by the options they chose', async () => {
    const quizId = await createQuiz(
      server,
      adminToken,
      quizJson('Shuffled Paper', QUESTIONS, { shuffle_questions: true, shuffle_options: true }),
    )
    const papers: { questions: number[]; correctPositions: number[] }[] = []
    for (const learner of ['examinee3', 'examinee4']) {
      const { page } = await open(learner, 'en', PHONE)
      await page.goto(`/quiz/${quizId}`)
      const paper = { questions: [] as number[], correctPositions: [] as number[] }
      for (let n = 1; n <= SEEN; n += 1) {
        const heading = page.locator('.question__text')
        await heading.waitFor()
        // The question shown is "Question k: ...": its authored number, whatever its place here.
        const text = (await heading.textContent()) ?? ''
        const authored = Number(/^Question (\d+):/.exec(text.trim())?.[1])
        expect(authored).toBeGreaterThan(0)
        paper.questions.push(authored)
        const names = await page
          .getByRole('radio')
          .evaluateAll((radios) => radios.map((radio) => radio.closest('label')?.textContent ?? ''))
        const right = names.findIndex((name) => name.includes(optionText(authored, 0, 'en')))
        expect(right).toBeGreaterThanOrEqual(0)
        paper.correctPositions.push(right)
        // Right answers by option text for the first four, a wrong one for the fifth: 4 - 0.2.
        const k = n < SEEN ? 0 : 2
        await page.getByRole('radio', { name: radioName(optionText(authored, k, 'en')) }).check()
        if (n < SEEN) {
          await page.getByRole('button', { name: enQuiz.next, exact: true }).click()
          await page
            .getByText(fill(enQuiz.question.heading, { number: n + 1, total: QUESTIONS }), { exact: true })
            .waitFor()
        }
      }
      const score = await submitExam(page)
      await score.waitFor()
      expect(await score.getByText('3.80', { exact: true }).isVisible()).toBe(true)
      papers.push(paper)
    }
    const [first, second] = papers as [(typeof papers)[0], (typeof papers)[0]]
    // Five of thirty questions in the same order by chance: about 1 in 17 million.
    expect(first.questions).not.toEqual(second.questions)
    expect(first.questions).not.toEqual([1, 2, 3, 4, 5])
    // The right option sat at A in all ten questions seen by chance: about 1 in a million.
    expect([...first.correctPositions, ...second.correctPositions].some((position) => position !== 0)).toBe(true)
  })
})

// Issue 46: on a 360 x 740 phone the site navigation folds behind Menu while an attempt is open, the palette
// behind its counts button, and the question with its first option is in the first screen, in both languages.
describe('the exam on a 360 x 740 phone', () => {
  it.each([
    { language: 'en' as const, learner: 'examinee5' },
    { language: 'ne' as const, learner: 'examinee6' },
  ])('starts the question and its options in the first screen ($language)', async ({ language, learner }) => {
    const quizId = await createQuiz(server, adminToken, quizJson(`Phone first screen ${language}`, 12))
    const { page } = await open(learner, language, PHONE)
    await page.goto(`/quiz/${quizId}`)
    await page.getByText(questionText(1, language), { exact: true }).waitFor()
    const first = await page.locator('label.option').first().boundingBox()
    expect(first).not.toBeNull()
    expect(first!.y).toBeGreaterThanOrEqual(0)
    expect(first!.y + first!.height).toBeLessThanOrEqual(PHONE.height)
    expect(await page.locator('.top-nav').isVisible()).toBe(false)
    await screenshot(page, `exam-phone-first-screen-${language}`)
    await page.locator('.quiz__menu').click()
    expect(await page.locator('.top-nav').isVisible()).toBe(true)
  })
})
