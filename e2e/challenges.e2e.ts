import { beforeAll, describe, expect, it } from 'vitest'
import enAdmin from '../web/src/i18n/locales/en/admin.json'
import enResults from '../web/src/i18n/locales/en/results.json'
import neResults from '../web/src/i18n/locales/ne/results.json'
import {
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

// Issue 28 against the real server: a learner challenges a key from the report, the admin previews a change of
// key (the dry run) and applies it, and the learner sees the bell, the notification and "Key changed".

const ADMIN = { username: 'keyadmin', password: 'Kathmandu-Keys-77' }
const LEARNER = { username: 'keypupil1', password: 'Learner-pass-42' }
const challenge = enResults.challenge
const keys = enAdmin.key_challenges

const journey = setUpJourney()
let server: TestServer
let quizId: number

beforeAll(async () => {
  server = journey.server
  const adminToken = await createAdmin(server, ADMIN)
  server.cli('create-learners', ['--count', '1', '--prefix', 'keypupil', '--password', LEARNER.password])
  quizId = await createQuiz(server, adminToken, {
    title: { en: 'Provincial capitals', ne: 'प्रदेश राजधानीहरू' },
    duration_minutes: 10,
    questions: [
      {
        // The key is wrong on purpose: Pokhara is Gandaki's capital.
        text: { en: 'Capital of Gandaki Province?', ne: 'गण्डकी प्रदेशको राजधानी?' },
        options: [
          { text: { en: 'Kathmandu', ne: 'काठमाडौं' }, is_correct: true },
          { text: { en: 'Pokhara', ne: 'पोखरा' }, is_correct: false },
        ],
      },
      {
        text: { en: 'Capital of Bagmati Province?', ne: 'बागमती प्रदेशको राजधानी?' },
        options: [
          { text: { en: 'Hetauda', ne: 'हेटौंडा' }, is_correct: true },
          { text: { en: 'Dhulikhel', ne: 'धुलिखेल' }, is_correct: false },
        ],
      },
    ],
  })
})

describe('challenging an answer key', () => {
  let reportPath: string

  it('is raised by a learner from the report on a phone', async () => {
    const page = await journey.open({ user: LEARNER, viewport: PHONE })
    await page.goto(`/quiz/${quizId}`)
    await page.getByRole('timer').waitFor()
    for (const [n, answer] of [
      [1, /^Pokhara/],
      [2, /^Hetauda/],
    ] as const) {
      // On a phone the palette is a sheet behind its counts button (issue 46).
      await (await examPalette(page)).getByRole('button', { name: new RegExp(`^Question ${n},`) }).click()
      await page.getByRole('heading', { level: 2, name: `Question ${n} of 2` }).waitFor()
      await page.getByRole('radio', { name: answer }).check()
    }
    const score = await submitExam(page)
    await score.getByRole('link', { name: 'View Report' }).click()
    await page.getByText('0.80 of 2').waitFor()
    reportPath = new URL(page.url()).pathname

    await page.getByRole('button', { name: /Capital of Gandaki/ }).click()
    const dialog = page.getByRole('dialog', { name: 'Question 1' })
    await dialog.getByRole('button', { name: challenge.open }).click()
    await dialog.getByRole('radio', { name: challenge.reasons.wrong_key }).check()
    await dialog.getByRole('combobox', { name: challenge.proposed_label }).selectOption({ label: 'B. Pokhara' })
    await dialog.getByRole('textbox', { name: challenge.note_label }).fill('Pokhara has been the capital since 2018.')
    await expectNoSidewaysScroll(page)
    await expectAccessible(page)
    await screenshot(page, 'challenge-form-en-phone')
    await dialog.getByRole('button', { name: challenge.submit }).click()
    await dialog.getByText(challenge.status.open).waitFor()
    await dialog.getByText('Option B').waitFor()
    await expectAccessible(page)
    await screenshot(page, 'challenge-sent-en-phone')
  })

  it('is previewed and decided by the admin on a tablet', async () => {
    const page = await journey.open({ user: ADMIN, viewport: TABLET })
    await page.goto('/admin/key-challenges')
    await waitForHeading(page, keys.title)
    const nav = page.getByRole('link', { name: /^Key challenges/ })
    await expect.poll(() => nav.textContent()).toMatch(/1/)
    const card = page.getByRole('article', { name: /Question/ })
    await card.getByText('Capital of Gandaki Province?').waitFor()
    await card.getByText(`${keys.reasons.wrong_key}: 1`).waitFor()
    await expectAccessible(page)

    await card.getByRole('button', { name: keys.decide }).click()
    const form = card.getByRole('form', { name: keys.decision.title })
    await form.getByRole('radio', { name: new RegExp(keys.actions.change) }).check()
    await form.getByRole('radio', { name: 'Option B' }).check()
    await form.getByRole('textbox', { name: new RegExp(keys.decision.note) }).fill('Pokhara is the capital of Gandaki.')
    await form.getByRole('button', { name: keys.decision.preview }).click()
    const scores = form.getByRole('table', { name: /Score changes/ })
    await scores.waitFor()
    expect(await scores.getByRole('row').nth(1).textContent()).toMatch(/keypupil1.*0\.80.*2\.00/)
    await expectAccessible(page)
    await screenshot(page, 'key-challenges-preview-en-tablet')
    await form.getByRole('button', { name: keys.decision.apply }).click()
    // The decided question leaves the open queue; the outcome stays above it.
    await page
      .getByText(/^Applied as key version/)
      .first()
      .waitFor()
    await screenshot(page, 'key-challenges-applied-en-tablet')
  })

  it('shows the learner the bell, the notification and the changed key, in both languages', async () => {
    const page = await journey.open({ user: LEARNER, viewport: PHONE })
    await page.goto(reportPath)
    // By position: its name follows the language.
    const row = page.locator('.analysis__row').first()
    await page.getByRole('button', { name: /Capital of Gandaki/ }).waitFor()
    await expect.poll(() => row.textContent()).toContain('Key changed: \u22120.20 → +1.00')
    await page.getByText('2.00 of 2').waitFor()
    await expectNoSidewaysScroll(page)
    await expectAccessible(page)
    await screenshot(page, 'challenge-key-changed-en-phone')

    await page.getByRole('button', { name: 'नेपाली' }).first().click()
    await expect
      .poll(() => row.textContent())
      .toContain(`${neResults.regrade.changed.split(':')[0]}: \u2212०.२० → +१.००`)
    await row.click()
    await page.getByRole('dialog').getByText(neResults.challenge.status.accepted).waitFor()
    await expectNoSidewaysScroll(page)
    await expectAccessible(page)
    await screenshot(page, 'challenge-outcome-ne-phone')
    await page.keyboard.press('Escape')

    const bell = page.getByRole('link', { name: /^सूचनाहरू, / })
    await bell.waitFor()
    await screenshot(page, 'challenge-bell-ne-phone')
    await bell.click()
    await waitForHeading(page, 'सूचनाहरू')
    await expectNoSidewaysScroll(page)
    await expectAccessible(page)
    await screenshot(page, 'notifications-ne-phone')
    await page.getByRole('button', { name: 'English' }).first().click()
    await waitForHeading(page, 'Notifications')
    await screenshot(page, 'notifications-en-phone')
    await page.getByRole('link', { name: 'Open' }).first().click()
    await page.waitForURL(`**${reportPath}`)
  })
})
