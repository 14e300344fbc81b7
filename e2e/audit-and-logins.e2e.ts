import { describe, expect, it } from 'vitest'
import enAdmin from '../web/src/i18n/locales/en/admin.json'
import enAuth from '../web/src/i18n/locales/en/auth.json'
import enInstitutions from '../web/src/i18n/locales/en/institutions.json'
import enProfile from '../web/src/i18n/locales/en/profile.json'
import neInstitutions from '../web/src/i18n/locales/ne/institutions.json'
import neProfile from '../web/src/i18n/locales/ne/profile.json'
import {
  PHONE,
  TABLET,
  checkScreen,
  createAdmin,
  createQuiz,
  expectAccessible,
  expectNoSidewaysScroll,
  interpolate as fill,
  screenshot,
  setUpJourney,
  waitForHeading,
  QUIZ_LEARNER_PASSWORD as LEARNER_PASSWORD,
} from './fixtures'

// docs/decisions/018 against the real server: an admin edits a quiz and finds the edit in the Audit log (768 px, both
// languages); a learner logged in on a phone and on this browser sees both logins on the profile, logs the phone out,
// and the phone's refresh token is then refused.

const ADMIN = { username: 'registrar', password: 'Kathmandu-Exam-77', phone: '9800000011' }
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 13; SM-A515F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36'

const journey = setUpJourney()

describe('audit log', () => {
  it('shows an admin the quiz edit they just made, with before and after, in English and Nepali', async () => {
    const { server } = journey
    const token = await createAdmin(server, ADMIN)
    const quizId = await createQuiz(server, token, {
      title: { en: 'Audit Physics', ne: 'भौतिक' },
      duration_minutes: 90,
      questions: [
        {
          text: { en: 'What is the unit of force?' },
          options: [
            { text: { en: 'Newton' }, is_correct: true },
            { text: { en: 'Joule' }, is_correct: false },
          ],
        },
      ],
    })

    const page = await journey.open({ viewport: TABLET, user: ADMIN, timezoneId: 'Asia/Kathmandu' })
    await page.goto(`/admin/quiz/${quizId}/edit`)
    await waitForHeading(page, 'Edit Quiz: Audit Physics')
    await page.getByLabel('Duration (Mins)', { exact: true }).fill('45')
    await page.getByRole('button', { name: 'Save Details' }).click()
    await page.getByRole('status').filter({ hasText: 'Quiz details updated successfully!' }).waitFor()

    await page.goto('/admin')
    await page.getByRole('link', { name: enAdmin.nav.audit }).click()
    await page.waitForURL('**/admin/audit')
    await waitForHeading(page, enInstitutions.audit.title)
    const edit = page.locator('.audit-table tbody tr').first()
    await edit.waitFor()
    expect(await edit.textContent()).toContain(`${enInstitutions.audit.actions.update}Quiz #${quizId}Audit Physics`)
    expect(await edit.textContent()).toContain(`${enInstitutions.audit.fields.duration_minutes}90 → 45`)
    expect(await edit.textContent()).toContain(ADMIN.username)
    // The quiz's creation is the older entry.
    expect(await page.locator('.audit-table tbody tr').nth(1).textContent()).toContain(
      enInstitutions.audit.actions.create,
    )

    await page.getByLabel(enInstitutions.audit.action).selectOption({ label: enInstitutions.audit.actions.update })
    await page.getByRole('button', { name: enInstitutions.audit.apply }).click()
    await page.getByText(fill(enInstitutions.audit.total, { total: '1' })).waitFor()
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'audit-log-en-768')

    const nepali = await journey.open({ viewport: TABLET, user: ADMIN, language: 'ne' })
    await nepali.goto('/admin/audit')
    await waitForHeading(nepali, neInstitutions.audit.title)
    const row = nepali.locator('.audit-table tbody tr').first()
    await row.waitFor()
    expect(await row.textContent()).toContain(`${neInstitutions.audit.fields.duration_minutes}९० → ४५`)
    // Bikram Sambat: the year is 208x.
    expect(await row.locator('.audit-when').textContent()).toMatch(/^२०८[०-९] /)
    await nepali.getByLabel(neInstitutions.audit.from).fill('2026-11-20')
    await expectAccessible(nepali)
    await expectNoSidewaysScroll(nepali)
    await screenshot(nepali, 'audit-log-ne-768')
  })
})

describe('active logins', () => {
  it('lists the phone and this browser, logs the phone out, and the phone can no longer refresh', async () => {
    const { server } = journey
    server.cli('create-learners', ['--count', '1', '--prefix', 'mobile', '--password', LEARNER_PASSWORD])
    // The "phone": a login made by an Android browser, from the same test machine.
    const phoneLogin = await fetch(`${server.baseUrl}/api/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': ANDROID_CHROME },
      body: JSON.stringify({ username: 'mobile1', password: LEARNER_PASSWORD }),
    })
    const phoneTokens = (await phoneLogin.json()) as { refresh: string }

    const page = await journey.open({ viewport: PHONE })
    await page.goto('/login')
    await page.getByLabel(enAuth.username, { exact: true }).fill('mobile1')
    await page.getByLabel(enAuth.password, { exact: true }).fill(LEARNER_PASSWORD)
    await page.getByRole('button', { name: enAuth.login.submit, exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await page.goto('/profile')
    const logins = page.getByRole('region', { name: enProfile.logins_title })
    await logins.getByRole('listitem').nth(1).waitFor()
    expect(await logins.getByRole('listitem').count()).toBe(2)
    const current = logins.getByRole('listitem').filter({ hasText: enProfile.this_device })
    expect(await current.textContent()).toContain('on Linux')
    const phone = logins.getByRole('listitem').filter({ hasText: 'Chrome on Android' })
    expect(await phone.textContent()).toContain('127.0.0.1')
    await checkScreen(page, 'profile-logins-en-360')

    await phone.getByRole('button', { name: fill(enProfile.log_out_device, { device: 'Chrome on Android' }) }).click()
    await logins.getByText(enProfile.logged_out_one).waitFor()
    await logins.getByText(enProfile.no_other_logins).waitFor()
    expect(await logins.getByRole('listitem').count()).toBe(1)

    const refused = await server.api('POST', '/api/token/refresh/', { refresh: phoneTokens.refresh })
    expect(refused.status).toBe(401)

    await page.evaluate(() => localStorage.setItem('language', 'ne'))
    await page.reload()
    await page.getByRole('region', { name: neProfile.logins_title }).getByText(neProfile.this_device).waitFor()
    await page.getByRole('form', { name: neProfile.password_title }).waitFor()
    await checkScreen(page, 'profile-logins-ne-360')
  })
})
