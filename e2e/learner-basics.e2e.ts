import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import enAuth from '../web/src/i18n/locales/en/auth.json'
import enDashboard from '../web/src/i18n/locales/en/dashboard.json'
import enProfile from '../web/src/i18n/locales/en/profile.json'
import neDashboard from '../web/src/i18n/locales/ne/dashboard.json'
import neProfile from '../web/src/i18n/locales/ne/profile.json'
import {
  DESKTOP,
  PHONE,
  checkScreen,
  createAdmin,
  createQuiz,
  imageRendered,
  setUpJourney,
  waitForHeading,
  type TestServer,
} from './fixtures'

// The learner's first screens of SPEC.md against the real server: the dashboard in English and Nepali (with
// the fallback to English), paid-tier cards, and the profile with a picture upload and a language preference
// that the app follows, at 360x740 and at desktop size. Quizzes are set up through the admin API.

const ADMIN = { username: 'basics_admin', password: 'Granite-Willow-3390' }
const LEARNER_PASSWORD = 'Saffron-Ridge-6154'
const learnerLogin = (username: string) => ({ username, password: LEARNER_PASSWORD })

const questions = [
  {
    text: { en: 'What is the capital of Nepal?', ne: 'नेपालको राजधानी कुन हो?' },
    options: [
      { text: { en: 'Kathmandu', ne: 'काठमाडौं' }, is_correct: true },
      { text: { en: 'Pokhara', ne: 'पोखरा' }, is_correct: false },
    ],
  },
  {
    text: { en: 'How many districts does Nepal have?' },
    options: [
      { text: { en: '75' }, is_correct: false },
      { text: { en: '77' }, is_correct: true },
    ],
  },
]
const QUIZZES = {
  bilingual: {
    title: { en: 'Nepal General Knowledge', ne: 'नेपाल सामान्य ज्ञान' },
    duration_minutes: 20,
    difficulty: 'easy',
    allowed_attempts: 3,
    questions,
  },
  englishOnly: {
    title: { en: 'Science Basics', ne: '' },
    duration_minutes: 45,
    difficulty: 'hard',
    allowed_attempts: 2,
    questions,
  },
  paid: {
    title: { en: 'Premium Mock Exam', ne: 'प्रिमियम नमुना परीक्षा' },
    duration_minutes: 90,
    difficulty: 'medium',
    is_paid_tier: true,
    questions,
  },
}
const ids: Record<keyof typeof QUIZZES, number> = { bilingual: 0, englishOnly: 0, paid: 0 }

const journey = setUpJourney()
let server: TestServer
let adminToken: string

/** A card of the dashboard, found by its title. */
const card = (page: Page, title: string) =>
  page.locator('.quiz-card').filter({ has: page.getByRole('heading', { name: title, exact: true }) })

beforeAll(async () => {
  server = journey.server
  adminToken = await createAdmin(server, ADMIN)
  server.cli('create-learners', ['--count', '3', '--prefix', 'basics_learner', '--password', LEARNER_PASSWORD])
})

describe('dashboard', () => {
  it('says so when no quiz is available', async () => {
    const page = await journey.open({ viewport: PHONE, user: learnerLogin('basics_learner1') })
    await page.goto('/')
    await page.getByText(enDashboard.empty, { exact: true }).waitFor()
    await checkScreen(page, 'dashboard-empty-en-phone')
  })

  it('has quizzes once an admin creates them', async () => {
    for (const key of Object.keys(QUIZZES) as (keyof typeof QUIZZES)[]) {
      ids[key] = await createQuiz(server, adminToken, QUIZZES[key])
    }
  })

  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`shows the cards in English, then in Nepali with the English fallback (${size})`, async () => {
      const page = await journey.open({ viewport, user: learnerLogin('basics_learner1') })
      await page.goto('/')
      await waitForHeading(page, enDashboard.title)

      const gk = card(page, QUIZZES.bilingual.title.en)
      await gk.waitFor()
      expect(await gk.textContent()).toContain(enDashboard.minutes.replace('{{minutes}}', '20'))
      expect(await gk.locator('.badge--easy').textContent()).toBe(
        `${enDashboard.difficulty_label}: ${enDashboard.difficulty.easy}`,
      )
      expect(await gk.getByText('3 of 3', { exact: true }).count()).toBe(1)
      expect(await gk.getByText(enDashboard.paid, { exact: true }).count()).toBe(0)
      expect(await gk.getByRole('link', { name: enDashboard.start }).getAttribute('href')).toBe(
        `/quiz/${ids.bilingual}/instructions`,
      )

      const science = card(page, QUIZZES.englishOnly.title.en)
      expect(await science.locator('.badge--hard').textContent()).toBe(
        `${enDashboard.difficulty_label}: ${enDashboard.difficulty.hard}`,
      )
      expect(await science.getByText('2 of 2', { exact: true }).count()).toBe(1)

      // Paid tier without paid access: the badge, a disabled Start and the reason.
      const paid = card(page, QUIZZES.paid.title.en)
      expect(await paid.getByText(enDashboard.paid, { exact: true }).count()).toBe(1)
      expect(await paid.getByRole('button', { name: enDashboard.start }).isDisabled()).toBe(true)
      expect(await paid.getByText(enDashboard.paid_only, { exact: true }).count()).toBe(1)
      // No Start link; the one link leads to the plans (WEB.md "Paying").
      expect(await paid.getByRole('link', { name: enDashboard.start }).count()).toBe(0)
      expect(await paid.getByRole('link', { name: enDashboard.see_plans }).getAttribute('href')).toBe('/plans')
      await checkScreen(page, `dashboard-en-${size}`)

      await page.getByRole('main').getByRole('group').getByRole('button', { name: 'नेपाली' }).click()
      await waitForHeading(page, neDashboard.title)
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('ne')
      const gkNe = card(page, QUIZZES.bilingual.title.ne)
      await gkNe.waitFor()
      expect(await gkNe.textContent()).toContain(neDashboard.minutes.replace('{{minutes}}', '२०'))
      expect(await gkNe.locator('.badge--easy').textContent()).toBe(
        `${neDashboard.difficulty_label}: ${neDashboard.difficulty.easy}`,
      )
      expect(await card(page, QUIZZES.englishOnly.title.en).getByRole('heading').getAttribute('lang')).toBe('en')
      expect(await card(page, QUIZZES.paid.title.ne).getByText(neDashboard.paid_only, { exact: true }).count()).toBe(1)
      await checkScreen(page, `dashboard-ne-${size}`)

      await page.getByRole('main').getByRole('group').getByRole('button', { name: 'English' }).click()
      await waitForHeading(page, enDashboard.title)
      await gk.getByRole('link', { name: enDashboard.start }).click()
      await page.waitForURL((url) => url.pathname === `/quiz/${ids.bilingual}/instructions`)
    })
  }

  it('lets a learner with paid access start a paid quiz', async () => {
    server.cli('grant-paid-access', ['--username', 'basics_learner3'])
    const page = await journey.open({ user: learnerLogin('basics_learner3') })
    await page.goto('/')
    const paid = card(page, QUIZZES.paid.title.en)
    await paid.waitFor()
    expect(await paid.getByRole('link', { name: enDashboard.start }).getAttribute('href')).toBe(
      `/quiz/${ids.paid}/instructions`,
    )
  })
})

describe('profile', () => {
  for (const [size, viewport, learner] of [
    ['phone', PHONE, 'basics_learner1'],
    ['desktop', DESKTOP, 'basics_learner2'],
  ] as const) {
    it(`edits the profile, uploads a picture that shows afterwards, and switches the language with the preference (${size})`, async () => {
      const page = await journey.open({ viewport, user: learnerLogin(learner) })
      await page.goto('/profile')
      await waitForHeading(page, enProfile.title)
      const username = page.getByLabel(enProfile.username, { exact: true })
      await username.waitFor()
      expect(await username.inputValue()).toBe(learner)
      expect(await username.getAttribute('readonly')).not.toBeNull()
      expect(await page.getByLabel(enProfile.email, { exact: true }).getAttribute('type')).toBe('email')
      await checkScreen(page, `profile-en-${size}`)

      // A refused email keeps the form, with SPEC.md's failure and the field's own message.
      await page.getByLabel(enProfile.email, { exact: true }).fill('not-an-email')
      await page.getByRole('button', { name: enProfile.save }).click()
      await page.getByRole('alert').filter({ hasText: enProfile.save_failed }).waitFor()
      await page.getByText(enProfile.email_invalid, { exact: true }).waitFor()

      await page.getByText(enProfile.no_file, { exact: true }).waitFor()
      const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: '#e11d48' } })
        .png()
        .toBuffer()
      await page
        .getByLabel(enProfile.choose_picture, { exact: true })
        .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png })
      await page.getByText('me.png', { exact: true }).waitFor()
      const preview = page.getByRole('img', { name: enProfile.picture_new_alt })
      await preview.waitFor()
      expect(await preview.getAttribute('src')).toMatch(/^blob:/)
      expect(await imageRendered(preview)).toBe(true)

      await page.getByLabel(enProfile.full_name, { exact: true }).fill('Sita Sharma')
      await page.getByLabel(enProfile.email, { exact: true }).fill('sita@example.com')
      await page.getByRole('button', { name: enProfile.save }).click()
      await page.getByRole('status').filter({ hasText: enProfile.saved }).waitFor()
      await page.getByText(enProfile.no_file, { exact: true }).waitFor()
      const saved = page.getByRole('img', { name: enProfile.picture_alt, exact: true })
      await saved.waitFor()
      expect(await saved.getAttribute('src')).not.toMatch(/^blob:/)
      await expect.poll(() => imageRendered(saved)).toBe(true)
      await checkScreen(page, `profile-saved-en-${size}`)

      await page.reload()
      await page.getByLabel(enProfile.full_name, { exact: true }).waitFor()
      expect(await page.getByLabel(enProfile.full_name, { exact: true }).inputValue()).toBe('Sita Sharma')
      expect(await page.getByLabel(enProfile.email, { exact: true }).inputValue()).toBe('sita@example.com')
      await expect
        .poll(() => imageRendered(page.getByRole('img', { name: enProfile.picture_alt, exact: true })))
        .toBe(true)

      // Saving Nepali as the preferred language switches the app to Nepali.
      await page.getByLabel(enProfile.language, { exact: true }).selectOption('ne')
      await page.getByRole('button', { name: enProfile.save }).click()
      await waitForHeading(page, neProfile.title)
      await page.getByRole('status').filter({ hasText: neProfile.saved }).waitFor()
      expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('ne')
      await checkScreen(page, `profile-saved-ne-${size}`)

      // The next login applies the preference on a browser that never chose a language (one that chose keeps its
      // choice and saves it: login-page.test.tsx).
      const fresh = await journey.open({ viewport })
      await fresh.goto('/login')
      await fresh.getByLabel(enAuth.username, { exact: true }).fill(learner)
      await fresh.getByLabel(enAuth.password, { exact: true }).fill(LEARNER_PASSWORD)
      await fresh.getByRole('button', { name: enAuth.login.submit, exact: true }).click()
      await fresh.waitForURL((url) => url.pathname === '/')
      await waitForHeading(fresh, neDashboard.title)
    })
  }

  it('shows the profile in Nepali', async () => {
    const page = await journey.open({ viewport: PHONE, language: 'ne', user: learnerLogin('basics_learner3') })
    await page.goto('/profile')
    await waitForHeading(page, neProfile.title)
    await page.getByLabel(neProfile.full_name, { exact: true }).waitFor()
    await checkScreen(page, 'profile-ne-phone')
    const desktop = await journey.open({ viewport: DESKTOP, language: 'ne', user: learnerLogin('basics_learner3') })
    await desktop.goto('/profile')
    await desktop.getByLabel(neProfile.full_name, { exact: true }).waitFor()
    await checkScreen(desktop, 'profile-ne-desktop')
  })
})
