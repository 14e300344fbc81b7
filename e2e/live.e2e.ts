import { beforeAll, describe, expect, it } from 'vitest'
import enDashboard from '../web/src/i18n/locales/en/dashboard.json'
import enLive from '../web/src/i18n/locales/en/live.json'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import enResults from '../web/src/i18n/locales/en/results.json'
import neDashboard from '../web/src/i18n/locales/ne/dashboard.json'
import neLive from '../web/src/i18n/locales/ne/live.json'
import {
  PHONE,
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

// Issue 29 against the real server and its real clock: a learner registers for a live mock on the dashboard, the
// mock opens, they sit it from the instructions, and read the leaderboard, provisional after the common end and final
// once the challenge window has closed. A second learner, who hides their name, sits it through the API.

const ADMIN = { username: 'liveadmin', password: 'Kathmandu-Live-77' }
const LEARNER = { username: 'livepupil1', password: 'Learner-pass-42' }
const OTHER = { username: 'livepupil2', password: 'Learner-pass-42' }
const LEAD_MS = 45_000
const live = enDashboard.live

// The grace after a deadline is short, so the leaderboard can become final within the journey; the announcements
// run, so the results notice is sent.
const journey = setUpJourney({ SUBMIT_GRACE_SECONDS: '5', LIVE_ANNOUNCEMENT_INTERVAL_MS: '1000' })
let server: TestServer
let adminToken: string
let quizId: number
let startsAt: number
let endsAt: number

const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())))

beforeAll(async () => {
  server = journey.server
  adminToken = await createAdmin(server, ADMIN)
  server.cli('create-learners', ['--count', '2', '--prefix', 'livepupil', '--password', LEARNER.password])
  startsAt = Date.now() + LEAD_MS
  endsAt = startsAt + 60_000
  quizId = await createQuiz(server, adminToken, {
    title: { en: 'Saturday live mock', ne: 'शनिबारको लाइभ मक' },
    duration_minutes: 1,
    challenge_days: 1,
    live: { starts_at: new Date(startsAt).toISOString(), join_minutes: 1 },
    questions: [
      {
        text: { en: 'Highest peak of Nepal?', ne: 'नेपालको सबैभन्दा अग्लो चुचुरो?' },
        options: [
          { text: { en: 'Sagarmatha', ne: 'सगरमाथा' }, is_correct: true },
          { text: { en: 'Kanchenjunga', ne: 'कञ्चनजङ्घा' }, is_correct: false },
        ],
      },
      {
        text: { en: 'Longest river of Nepal?', ne: 'नेपालको सबैभन्दा लामो नदी?' },
        options: [
          { text: { en: 'Karnali', ne: 'कर्णाली' }, is_correct: true },
          { text: { en: 'Bagmati', ne: 'बागमती' }, is_correct: false },
        ],
      },
    ],
  })
}, 60_000)

describe('a live mock', () => {
  it('is registered for on the dashboard before it starts, on a phone', async () => {
    const page = await journey.open({ user: LEARNER, viewport: PHONE })
    await page.goto('/')
    await waitForHeading(page, enDashboard.title)
    const card = page.getByRole('listitem').filter({ hasText: 'Saturday live mock' })
    await card.getByRole('timer').waitFor()
    expect(await card.getByRole('timer').textContent()).toMatch(/^Starts in/)
    await card.locator('time', { hasText: /NPT$/ }).waitFor()
    await card.getByRole('button', { name: live.register }).click()
    await card.getByRole('button', { name: live.registered }).waitFor()
    expect(await card.getByRole('button', { name: live.registered }).getAttribute('aria-pressed')).toBe('true')
    await expectNoSidewaysScroll(page)
    await expectAccessible(page)
    await screenshot(page, 'live-registered-en-phone')

    await page.getByRole('button', { name: 'नेपाली' }).first().click()
    const nepaliCard = page.getByRole('listitem').filter({ hasText: 'शनिबारको लाइभ मक' })
    await nepaliCard.locator('time', { hasText: /^२०८[०-९]/ }).waitFor()
    await nepaliCard.getByRole('button', { name: neDashboard.live.registered }).waitFor()
    await screenshot(page, 'live-registered-ne-phone')
    await page.getByRole('button', { name: 'English' }).first().click()
  })

  it('opens at its start, is sat from the instructions, and ranks everyone after the common end', async () => {
    const page = await journey.open({ user: LEARNER, viewport: PHONE })
    await sleepUntil(startsAt + 1_000)
    await page.goto('/')
    const card = page.getByRole('listitem').filter({ hasText: 'Saturday live mock' })
    await card.getByRole('link', { name: enDashboard.start }).click()
    await page.getByText(/You can join until/).waitFor()
    await page.getByText(enQuiz.live.late.split(':')[0]!).waitFor()
    await expectAccessible(page)
    await screenshot(page, 'live-instructions-en-phone')
    await page.getByRole('link', { name: enQuiz.instructions.start }).click()
    await page.getByRole('timer').waitFor()
    await page.getByRole('radio', { name: /^Sagarmatha/ }).check()
    await (await examPalette(page)).getByRole('button', { name: /^Question 2,/ }).click()
    await page.getByRole('radio', { name: /^Bagmati/ }).check()
    const score = await submitExam(page)
    await score.getByRole('link', { name: 'View Report' }).click()
    await page.getByText('0.80 of 2').waitFor()

    // The other learner hides their name and answers both right, through the API.
    const other = (await server.login(OTHER.username, OTHER.password)).access
    const form = new FormData()
    form.set('show_on_leaderboards', 'false')
    const hidden = await fetch(`${server.baseUrl}/api/users/profile/`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${other}` },
      body: form,
    })
    expect(hidden.status).toBe(200)
    const started = await server.api<{ questions: { id: number }[] }>(
      'GET',
      `/api/quizzes/${quizId}/`,
      undefined,
      other,
    )
    expect(started.status).toBe(200)
    const admin = await server.api<{ questions: { id: number; options: { id: number; is_correct: boolean }[] }[] }>(
      'GET',
      `/api/admin/quizzes/${quizId}/`,
      undefined,
      adminToken,
    )
    const answers = Object.fromEntries(
      admin.body.questions.map((q) => [q.id, q.options.find((option) => option.is_correct)!.id]),
    )
    const submitted = await server.api('POST', `/api/quizzes/${quizId}/submit/`, { answers }, other)
    expect(submitted.status).toBe(200)

    // Before the common end: no ranks yet.
    await page.getByRole('link', { name: enResults.leaderboard }).click()
    await waitForHeading(page, enLive.title)
    await page.getByText(enLive.status.running).waitFor()
    await screenshot(page, 'live-leaderboard-running-en-phone')

    await sleepUntil(endsAt + 1_000)
    await page.reload()
    await page.getByText(enLive.status.provisional).waitFor()
    const rows = page.getByRole('table').getByRole('row')
    await expect.poll(() => rows.count()).toBe(3)
    expect(await rows.nth(1).textContent()).toMatch(/1.*Learner.*2\.00/)
    expect(await rows.nth(2).textContent()).toMatch(/2.*livepupil1.*0\.80/)
    expect(await page.content()).not.toMatch(/98\d{8}/)
    await expectNoSidewaysScroll(page)
    await expectAccessible(page)
    await screenshot(page, 'live-leaderboard-provisional-en-phone')
    await page.getByRole('button', { name: 'नेपाली' }).first().click()
    await page.getByText(neLive.status.provisional).waitFor()
    expect(await rows.nth(2).textContent()).toMatch(/२.*livepupil1.*०\.८०/)
    await screenshot(page, 'live-leaderboard-provisional-ne-phone')
    await page.getByRole('button', { name: 'English' }).first().click()
  }, 180_000)

  it('turns final once the challenge window has closed, and tells the registered learner that results are out', async () => {
    // The institute closes the challenge window; no flag is open, and the last deadline and its grace have passed.
    const patched = await server.api('PATCH', `/api/admin/quizzes/${quizId}/`, { challenge_days: 0 }, adminToken)
    expect(patched.status).toBe(200)
    await sleepUntil(endsAt + 6_000)
    const page = await journey.open({ user: LEARNER, viewport: PHONE })
    await page.goto(`/quiz/${quizId}/leaderboard`)
    await page.getByText(enLive.status.final).waitFor()
    await expectAccessible(page)
    await screenshot(page, 'live-leaderboard-final-en-phone')

    const token = (await server.login(LEARNER.username, LEARNER.password)).access
    await expect
      .poll(
        async () =>
          (
            await server.api<{ results: { kind: string }[] }>('GET', '/api/notifications/', undefined, token)
          ).body.results.map((n) => n.kind),
        { timeout: 15_000 },
      )
      .toContain('live_results')
  }, 60_000)
})
