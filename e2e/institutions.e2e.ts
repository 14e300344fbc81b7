import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import enAdmin from '../web/src/i18n/locales/en/admin.json'
import neAdmin from '../web/src/i18n/locales/ne/admin.json'
import enInstitutions from '../web/src/i18n/locales/en/institutions.json'
import neInstitutions from '../web/src/i18n/locales/ne/institutions.json'
import {
  TABLET,
  createAdmin,
  createQuiz,
  expectAccessible,
  interpolate as fill,
  screenshot,
  setUpJourney,
  waitForHeading,
} from './fixtures'

// WEB.md "Administrators' analysis" against the real server, at tablet width in both languages: an admin opens a
// quiz's Attempts tab (table, all/first/best, Download CSV) and Statistics tab (figures, histogram, question
// table), then finds a learner on the Learners page and gives paid access with an end date and extra time.

const ADMIN = { username: 'teacher', password: 'Kathmandu-Exam-77', phone: '9800000001' }
const PASSWORD = 'Learner-pass-42'
const texts = { en: { ...enAdmin, ...enInstitutions }, ne: { ...neAdmin, ...neInstitutions } }

const journey = setUpJourney()
let quizId: number
let adminToken: string

beforeAll(async () => {
  const { server } = journey
  adminToken = await createAdmin(server, ADMIN)
  quizId = await createQuiz(server, adminToken, {
    title: { en: 'Class 10 Science Test', ne: 'कक्षा १० विज्ञान परीक्षा' },
    questions: [
      ['Which gas do plants take in?', 'बिरुवाले कुन ग्यास लिन्छ?'],
      ['What is H2O?', 'H2O के हो?'],
      ['Which is a mammal?', 'स्तनधारी कुन हो?'],
    ].map(([en, ne]) => ({
      text: { en, ne },
      options: ['Right', 'Wrong one', 'Wrong two'].map((text, i) => ({ text: { en: text }, is_correct: i === 0 })),
    })),
  })
  const quiz = await server.api<{ questions: { id: number; options: { id: number }[] }[] }>(
    'GET',
    `/api/admin/quizzes/${quizId}/`,
    undefined,
    adminToken,
  )
  const questions = quiz.body.questions
  server.cli('create-learners', ['--count', '4', '--prefix', 'student', '--password', PASSWORD])
  // Learner n answers the first n - 1 questions right and the rest wrong; student1 takes the quiz twice.
  const take = async (username: string, rightAnswers: number) => {
    const { access } = await server.login(username, PASSWORD)
    expect((await server.api('GET', `/api/quizzes/${quizId}/`, undefined, access)).status).toBe(200)
    const answers = Object.fromEntries(
      questions.map((question, i) => [question.id, question.options[i < rightAnswers ? 0 : 1]!.id]),
    )
    expect((await server.api('POST', `/api/quizzes/${quizId}/submit/`, { answers }, access)).status).toBe(200)
  }
  for (let n = 1; n <= 4; n++) await take(`student${n}`, Math.min(3, n - 1))
  await take('student1', 3)
})

describe.each(['en', 'ne'] as const)('institutions in %s', (language) => {
  const t = texts[language]
  const digits = (text: string) => (language === 'ne' ? text.replace(/\d/g, (d) => '०१२३४५६७८९'[Number(d)]!) : text)

  it("opens a quiz's Attempts tab, downloads the CSV, and reads the Statistics tab", async () => {
    const page = await journey.open({ viewport: TABLET, language, user: ADMIN })
    await page.goto(`/admin/quiz/${quizId}/edit`)
    await page.getByRole('navigation', { name: t.tabs.label }).getByRole('link', { name: t.tabs.attempts }).click()
    await page.waitForURL(`**/admin/quiz/${quizId}/attempts`)
    const title = language === 'en' ? 'Class 10 Science Test' : 'कक्षा १० विज्ञान परीक्षा'
    await waitForHeading(page, fill(t.attempts.title, { title }))
    await page.getByText(fill(t.attempts.total, { total: digits('5') })).waitFor()
    const rows = page.locator('.admin-table tbody tr')
    expect(await rows.count()).toBe(5)
    // Highest score first: student1's second attempt and student4 scored 3.
    expect(await rows.first().locator('td').nth(2).textContent()).toBe(digits('3.00'))

    await page.getByLabel(t.attempts.which).selectOption('first')
    await page.getByText(fill(t.attempts.total, { total: digits('4') })).waitFor()
    expect(await rows.count()).toBe(4)
    await expectAccessible(page)

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: t.attempts.download }).click(),
    ])
    expect(download.suggestedFilename()).toBe(`quiz-${quizId}-attempts-first.csv`)
    const csv = readFileSync((await download.path())!)
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = csv.toString('utf8').slice(1).trim().split('\r\n')
    expect(lines[0]).toBe(
      'attempt_id,username,full_name,phone_number,attempt_number,score,correct,incorrect,unanswered,started_at,completed_at,duration_seconds,late,mode,Q1,Q2,Q3',
    )
    expect(lines).toHaveLength(5)
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(['student4', 'student3', 'student2', 'student1'])
    expect(lines[1]!.split(',').slice(-3)).toEqual(['A', 'A', 'A'])
    expect(lines[4]!.split(',').slice(-3)).toEqual(['B', 'B', 'B'])

    await page.getByRole('link', { name: t.tabs.statistics }).click()
    await page.waitForURL(`**/admin/quiz/${quizId}/statistics`)
    await waitForHeading(page, fill(t.statistics.title, { title }))
    await page.getByRole('heading', { name: t.statistics.summary, level: 2 }).waitFor()
    const summary = page.locator('.statistics-summary')
    await summary
      .getByRole('row', { name: new RegExp(t.statistics.attempts) })
      .getByText(digits('4'))
      .waitFor()
    // First attempts scored -0.6, 0.6, 1.8, 3: the mean is 1.2.
    await summary
      .getByRole('row', { name: new RegExp(t.statistics.mean) })
      .getByText(digits('1.20'))
      .waitFor()
    await page.getByText(t.statistics.cronbach_alpha_help).waitFor()
    expect(await page.getByRole('img', { name: t.statistics.histogram_label }).isVisible()).toBe(true)
    expect(await page.locator('.histogram__bar').count()).toBeGreaterThan(0)
    const questionRows = page.locator('.statistics-questions tbody tr')
    expect(await questionRows.count()).toBe(3)
    expect(await page.getByText(t.statistics.discrimination_help).isVisible()).toBe(true)
    await expectAccessible(page)
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
    await screenshot(page, `institutions-statistics-${language}-768`)
  })

  it('finds a learner by search and gives paid access with an end date and extra time', async () => {
    const learner = language === 'en' ? 'student2' : 'student3'
    const page = await journey.open({ viewport: TABLET, language, user: ADMIN })
    await page.goto('/admin')
    await page.getByRole('link', { name: t.nav.learners }).click()
    await page.waitForURL('**/admin/learners')
    await waitForHeading(page, t.learners.title)
    await page.getByLabel(t.learners.search).fill(learner.toUpperCase())
    await page.getByRole('button', { name: t.learners.search_button }).click()
    await page.getByText(fill(t.learners.total, { total: digits('1') })).waitFor()
    const row = page.locator('.admin-table tbody tr')
    expect(await row.locator('td').first().textContent()).toBe(learner)
    expect(await row.getByText(t.learners.access_none, { exact: true }).isVisible()).toBe(true)

    await page.getByRole('button', { name: `${t.learners.edit}: ${learner}` }).click()
    const dialog = page.getByRole('dialog', { name: fill(t.learners.edit_title, { username: learner }) })
    await dialog.getByRole('checkbox', { name: t.learners.grant }).check()
    await dialog.getByLabel(t.learners.end_date).fill('2027-03-31')
    await dialog.getByLabel(t.learners.extra_time_label).fill('301')
    await dialog.getByText(t.learners.extra_time_invalid).waitFor()
    await dialog.getByLabel(t.learners.extra_time_label).fill('50')
    await expectAccessible(page)
    await screenshot(page, `institutions-learner-dialog-${language}-768`)
    await dialog.getByRole('button', { name: t.learners.save }).click()
    await page.getByText(fill(t.learners.saved, { username: learner })).waitFor()
    // The table scrolls in its own wrapper at 768 px; the page never scrolls sideways.
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .filter((element) => !element.closest('.admin-table-wrap') || element.classList.contains('admin-table-wrap'))
        .map((element) => `${element.tagName}.${element.className}`),
    )
    expect(wide).toEqual([])
    await row.getByText(fill(t.learners.extra_time_value, { percent: digits('50') })).waitFor()
    // In Nepali the end date is in Bikram Sambat: 31 March 2027 is in Chaitra 2083.
    expect(await row.getByText(language === 'en' ? /2027/ : /२०८३ चैत/).isVisible()).toBe(true)

    const stored = await journey.server.api<{
      results: { has_paid_access: boolean; paid_access_until: string; extra_time_percent: number }[]
    }>('GET', `/api/admin/users/?search=${learner}`, undefined, adminToken)
    expect(stored.body.results[0]).toMatchObject({ has_paid_access: true, extra_time_percent: 50 })
    expect(stored.body.results[0]!.paid_access_until).toMatch(/^2027-03-31T|^2027-04-01T/)
  })
})
