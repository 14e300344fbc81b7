import { beforeAll, describe, expect, it } from 'vitest'
import enBank from '../web/src/i18n/locales/en/bank.json'
import enSections from '../web/src/i18n/locales/en/sections.json'
import {
  DESKTOP,
  PHONE,
  TABLET,
  createAdmin,
  createQuiz,
  expectAccessible,
  expectNoSidewaysScroll,
  screenshot,
  setUpJourney,
  submitExam,
  waitForHeading,
  type TestServer,
  examPalette,
} from './fixtures'

// Issue 25 against the real server: an admin builds a two-section paper from the bank in the UI (one section of
// fixed questions picked from the bank, one draw), a learner takes it and reads a report with both sections' marks.
// The sections are timed: the learner moves on from the first early, with "Next section".

const ADMIN = { username: 'bankadmin', password: 'Kathmandu-Bank-77' }
const LEARNER = { username: 'bankpupil1', password: 'Learner-pass-42' }
const paper = enBank.paper

const bankQuestion = (topic: string, n: number) => ({
  text: { en: `${topic} question ${n}?`, ne: '' },
  topic,
  tags: [topic === 'Constitution' ? 'loksewa' : 'news'],
  difficulty: 'easy',
  source: 'E2E set',
  options: [
    { text: { en: 'Right' }, is_correct: true },
    { text: { en: 'Wrong' }, is_correct: false },
  ],
})

const journey = setUpJourney()
let server: TestServer
let adminToken: string
let quizId: number

beforeAll(async () => {
  server = journey.server
  adminToken = await createAdmin(server, ADMIN)
  server.cli('create-learners', ['--count', '1', '--prefix', 'bankpupil', '--password', LEARNER.password])
  for (const topic of ['Constitution', 'Current affairs'])
    for (let n = 1; n <= (topic === 'Constitution' ? 3 : 6); n += 1) {
      const { status } = await server.api('POST', '/api/admin/bank/questions/', bankQuestion(topic, n), adminToken)
      expect(status).toBe(201)
    }
  quizId = await createQuiz(server, adminToken, {
    title: { en: 'Nayab Subba mock', ne: 'नायब सुब्बा नमुना' },
    duration_minutes: 20,
    questions: [bankQuestion('Placeholder', 1)],
  })
})

describe('a paper built from the bank', () => {
  it('is built in the Paper tab: fixed questions from the bank, a draw with its pool, marks per section', async () => {
    const page = await journey.open({ user: ADMIN, viewport: TABLET })
    await page.goto('/admin/bank?topic=Constitution')
    await waitForHeading(page, enBank.title)
    await expect.poll(() => page.getByText('3 questions', { exact: true }).count()).toBe(1)
    await expectAccessible(page)

    await page.goto(`/admin/quiz/${quizId}/paper`)
    await waitForHeading(page, /^Paper: Nayab Subba mock/)
    // By position: its heading changes with the title typed.
    const first = page.locator('.paper-section').nth(0)
    await first.getByRole('button', { name: /^Remove question 1/ }).click()
    await first.getByLabel(paper.title_en).fill('Constitution')
    await first.getByLabel(paper.marks_correct).fill('2')
    await first.getByLabel(paper.marks_wrong).fill('0.4')
    await first.getByLabel(paper.time_limit).fill('5')
    await first.getByRole('button', { name: paper.pick }).click()
    const picker = page.getByRole('dialog')
    await picker.getByLabel(enBank.filters.topic).selectOption('Constitution')
    await expect.poll(() => picker.getByRole('button', { name: /^Add question/ }).count()).toBe(3)
    await picker
      .getByRole('button', { name: /^Add question/ })
      .first()
      .click()
    await picker
      .getByRole('button', { name: /^Add question/ })
      .first()
      .click()
    await picker.getByRole('button', { name: paper.picker_done }).click()

    await page.getByRole('button', { name: paper.add_section }).click()
    const second = page.locator('.paper-section').nth(1)
    await second.getByLabel(paper.title_en).fill('Current affairs')
    await second.getByLabel(paper.marks_wrong).fill('0.25')
    await second.getByLabel(paper.time_limit).fill('10')
    await second.getByRole('button', { name: paper.add_draw }).click()
    const draw = second.getByRole('group', { name: 'Draw 1' })
    await draw.getByLabel(paper.draw_topic).fill('Current affairs')
    await draw.getByLabel(paper.draw_count).fill('3')
    await draw.getByText('6 match').waitFor()
    await expect.poll(() => page.locator('.paper-totals').textContent()).toContain('5 questions, maximum 7.00 marks.')
    await page.getByRole('button', { name: paper.save }).click()
    await page.getByText(paper.saved).waitFor()
    await expectAccessible(page)
    await screenshot(page, 'bank-paper-tab-en-tablet')

    const { body } = await server.api<{ sections: { marks_correct: number; marks_wrong: number; items: unknown[] }[] }>(
      'GET',
      `/api/admin/quizzes/${quizId}/`,
      undefined,
      adminToken,
    )
    expect(body.sections.map((s) => [s.marks_correct, s.marks_wrong, s.items.length])).toEqual([
      [2, 0.4, 2],
      [1, 0.25, 1],
    ])
  })

  it('is taken by a learner on a phone, whose report shows each section marks', async () => {
    const page = await journey.open({ user: LEARNER, viewport: PHONE })
    await page.goto(`/quiz/${quizId}`)
    await page.getByRole('timer').waitFor()
    const tabs = page.getByRole('navigation', { name: enSections.tabs_label })
    await expect
      .poll(() => tabs.getByRole('button').allTextContents())
      .toEqual(['Constitution0 of 2 answered', 'Current affairs0 of 3 answeredNot yet open'])
    expect(await tabs.getByRole('button').nth(1).isDisabled()).toBe(true)
    expect(await page.getByRole('timer').textContent()).toMatch(/^[45]:\d\d$/)
    // Right in the first section (2 marks each), then on early; wrong in the second's first question (−0.25).
    for (const n of [1, 2]) {
      // On a phone the palette is a sheet behind its counts button (issue 46).
      await (await examPalette(page)).getByRole('button', { name: new RegExp(`^Question ${n},`) }).click()
      await page.getByRole('heading', { level: 2, name: `Question ${n} of 5` }).waitFor()
      await page.getByRole('radio', { name: /^Right/ }).check()
    }
    await expectNoSidewaysScroll(page)
    await expectAccessible(page)
    await screenshot(page, 'bank-exam-sections-en-phone')
    await page.getByRole('button', { name: enSections.next_section }).click()
    await page
      .getByRole('dialog', { name: 'Move on to Current affairs?' })
      .getByRole('button', { name: enSections.next_confirm })
      .click()
    await page.getByRole('heading', { level: 2, name: 'Question 3 of 5' }).waitFor()
    await expect.poll(() => tabs.getByRole('button').first().textContent()).toContain('Closed')
    expect(await page.getByRole('timer').textContent()).toMatch(/^(9|10):\d\d$/)
    await page.getByRole('radio', { name: /^Wrong/ }).check()
    await expectNoSidewaysScroll(page)
    const score = await submitExam(page)
    await score.getByText('out of 7').waitFor()
    await score.getByRole('link', { name: 'View Report' }).click()
    const sections = page.getByRole('region', { name: 'Sections' })
    await sections.waitFor()
    const rows = await sections.getByRole('row').allTextContents()
    expect(rows.slice(1)).toEqual(['Constitution4.00 of 4200', 'Current affairs-0.25 of 3012'])
    await page.getByText('3.75 of 7').waitFor()
    await expectNoSidewaysScroll(page)
    await expectAccessible(page)
    await screenshot(page, 'bank-report-sections-en-phone')
  })
})

// Issue 81 (WEB.md "A blind learner, with TalkBack, in Nepali"): the bank flags a picture no caption describes and
// shows the questions marked "Needs sight", in its list and its form.
describe('the bank for blind learners', () => {
  const SVG =
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect width="40" height="20" fill="#c00"/></svg>'
  const shape = (n: number, extra: object) => ({
    ...bankQuestion('Shapes', n),
    image: { svg: SVG, caption: { en: '', ne: '' } },
    ...extra,
  })

  it('marks a picture without a description and a question that needs sight, on a phone and a desktop', async () => {
    for (const question of [
      shape(1, {}),
      shape(2, { needs_sight: true, image: { svg: SVG, caption: { en: 'A red box' } } }),
    ]) {
      const { status } = await server.api('POST', '/api/admin/bank/questions/', question, adminToken)
      expect(status).toBe(201)
    }
    for (const [viewport, size] of [
      [PHONE, 'phone'],
      [DESKTOP, 'desktop'],
    ] as const) {
      const page = await journey.open({ user: ADMIN, viewport })
      await page.goto('/admin/bank?topic=Shapes')
      await waitForHeading(page, enBank.title)
      await expect.poll(() => page.getByText('2 questions', { exact: true }).count()).toBe(1)
      const table = page.locator('.bank-table')
      await expect.poll(() => table.getByText(enBank.blind.no_description, { exact: true }).count()).toBe(1)
      await expect.poll(() => table.getByText(enBank.blind.needs_sight, { exact: true }).count()).toBe(1)
      await expectNoSidewaysScroll(page)
      await expectAccessible(page)
      await screenshot(page, `bank-blind-marks-en-${size}`)

      // The filters are drawn afresh for the new address: a click, not check(), which would look at the old box.
      await page.getByLabel(enBank.filters.no_description).click()
      await expect.poll(() => page.getByText('1 questions', { exact: true }).count()).toBe(1)
      await page.getByRole('button', { name: /^Edit question/ }).click()
      const form = page.getByRole('region', { name: 'Edit Question' })
      await form.getByText(enBank.blind.no_description, { exact: true }).waitFor()
      await form.getByRole('checkbox', { name: enBank.blind.needs_sight }).waitFor()
      await form.getByText(enBank.blind.no_description, { exact: true }).scrollIntoViewIfNeeded()
      await expectAccessible(page)
      await screenshot(page, `bank-blind-form-en-${size}`)
    }
  })
})
