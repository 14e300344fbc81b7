import { describe, expect, it, beforeAll } from 'vitest'
import enNav from '../web/src/i18n/locales/en/nav.json'
import enPayments from '../web/src/i18n/locales/en/payments.json'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import neNav from '../web/src/i18n/locales/ne/nav.json'
import nePayments from '../web/src/i18n/locales/ne/payments.json'
import neQuiz from '../web/src/i18n/locales/ne/quiz.json'
import {
  PHONE,
  checkScreen,
  createAdmin,
  createQuiz,
  interpolate as fill,
  setUpJourney,
  waitForHeading,
} from './fixtures'

// WEB.md "Paying" against the real server with the fake provider (the default): a learner without paid access
// opens a paid quiz, follows its message to the plans, pays on the fake gateway's page, comes back to the
// payment page (completed, with the access end) and starts the quiz. Once per language, at 360x740.

const ADMIN = { username: 'admin', password: 'Kathmandu-Exam-77', phone: '9800000001' }
const PASSWORD = 'Learner-pass-42'
const texts = {
  en: { nav: enNav, payments: enPayments, quiz: enQuiz },
  ne: { nav: neNav, payments: nePayments, quiz: neQuiz },
}

const journey = setUpJourney()
let quizId: number

beforeAll(async () => {
  const { server } = journey
  const token = await createAdmin(server, ADMIN)
  const plan = await server.api(
    'POST',
    '/api/admin/plans/',
    { name: { en: 'One month', ne: 'एक महिना' }, price_paisa: 50000, days: 30 },
    token,
  )
  expect(plan.status).toBe(201)
  quizId = await createQuiz(server, token, {
    title: { en: 'Members Mock Test', ne: 'सदस्य नमुना परीक्षा' },
    is_paid_tier: true,
    questions: [
      {
        text: { en: 'Which is the capital of Nepal?', ne: 'नेपालको राजधानी कुन हो?' },
        options: [
          { text: { en: 'Kathmandu', ne: 'काठमाडौं' }, is_correct: true },
          { text: { en: 'Pokhara', ne: 'पोखरा' }, is_correct: false },
        ],
      },
    ],
  })
})

describe.each(['en', 'ne'] as const)('buying paid access in %s', (language) => {
  const t = texts[language]

  it('opens a paid quiz, buys a plan with the fake provider, comes back completed and starts the quiz', async () => {
    const prefix = `payer_${language}_`
    journey.server.cli('create-learners', ['--count', '1', '--prefix', prefix, '--password', PASSWORD])
    const page = await journey.open({ viewport: PHONE, language, user: { username: `${prefix}1`, password: PASSWORD } })

    // The paid quiz's instructions say it is for paid members and link to the plans.
    await page.goto(`/quiz/${quizId}/instructions`)
    await page.getByText(t.quiz.errors.paid_only).waitFor()
    await page.getByRole('link', { name: t.quiz.see_plans }).click()
    await page.waitForURL('**/plans')
    await waitForHeading(page, t.payments.plans.title)
    // The nav offers Plans now that one exists.
    expect(await page.getByRole('navigation').getByRole('link', { name: t.nav.plans }).isVisible()).toBe(true)
    const price = language === 'en' ? 'Rs 500' : 'रु ५००'
    await page.getByText(price, { exact: true }).waitFor()
    if (language === 'ne') await page.getByText('३० दिन').waitFor()
    await checkScreen(page, `payments-plans-${language}-360`)

    const payButton = page.getByRole('button', {
      name: fill(t.payments.plans.pay_with, { provider: t.payments.providers.fake }),
    })

    // First the learner cancels on the gateway's page: the payment fails, says why, and offers to try again.
    await payButton.click()
    await page.waitForURL('**/api/payments/fake/checkout/**')
    await page.getByRole('button', { name: /^Cancel/ }).click()
    await page.waitForURL(/\/payments\/\d+$/)
    await page.getByText(`${t.payments.payment.failed} ${t.payments.payment.reasons.canceled}`).waitFor()
    await checkScreen(page, `payments-failed-${language}-360`)
    await page.getByRole('link', { name: t.payments.payment.try_again }).click()
    await page.waitForURL('**/plans')

    // Then leaves for the fake gateway again (a location change), pays, and comes back through the return route.
    await payButton.click()
    await page.waitForURL('**/api/payments/fake/checkout/**')
    await page.getByRole('button', { name: /^Pay/ }).click()
    await page.waitForURL(/\/payments\/\d+$/)
    await page.getByText(t.payments.payment.completed).waitFor()
    const until = await page.locator('.payment__until').textContent()
    expect(until).toMatch(language === 'en' ? /You have paid access until \d+ \w+ 2026/ : /२०८[३४] \S+ [०-९]+/)
    await checkScreen(page, `payments-completed-${language}-360`)

    // Back on the quizzes, the paid quiz can start.
    await page.getByRole('link', { name: t.payments.payment.go_to_quizzes }).click()
    await page.waitForURL(/\/$/)
    await page.goto(`/quiz/${quizId}/instructions`)
    await page.getByRole('link', { name: t.quiz.instructions.start }).click()
    await page.waitForURL(`**/quiz/${quizId}`)
    await page.getByText(language === 'en' ? 'Which is the capital of Nepal?' : 'नेपालको राजधानी कुन हो?').waitFor()
  })
})
