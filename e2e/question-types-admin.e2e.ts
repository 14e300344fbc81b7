import { beforeAll, describe, expect, it } from 'vitest'
import enAdmin from '../web/src/i18n/locales/en/admin.json'
import neAdmin from '../web/src/i18n/locales/ne/admin.json'
import enBank from '../web/src/i18n/locales/en/bank.json'
import neBank from '../web/src/i18n/locales/ne/bank.json'
import neSittings from '../web/src/i18n/locales/ne/sittings.json'
import {
  DESKTOP,
  PHONE,
  createAdmin,
  createQuiz,
  expectAccessible,
  expectNoSidewaysScroll,
  interpolate,
  screenshot,
  setUpJourney,
  waitForHeading,
  type TestServer,
} from './fixtures'

// Issue 78's admin screens against the real server (WEB.md "Question types on the screens"): a question with
// several right options and a numeric one written in the bank's form, a passage with two questions in the bank's
// passage list, and a paper's section set with the JEE Advanced preset and the passage as one item; in English and
// Nepali, at 360 and 1280 px, with axe on each new screen. Then a sitting's printed paper of every type, in Nepali at
// 360 px: "Choose one or more", answer boxes for a number, and a passage once before the questions it serves.

const ADMIN = { username: 'typesadmin', password: 'Kathmandu-Types-78' }

interface BankRow {
  id: number
  text: { en: string }
}
interface BankQuestion {
  type: string
  options: { is_correct: boolean }[]
  answer: unknown
  decimals: number | null
}

const journey = setUpJourney()
let server: TestServer
let token: string
const koshi: number[] = []
let quizId: number

const bankRow = async (search: string) => {
  const { body } = await server.api<{ results: BankRow[] }>(
    'GET',
    `/api/admin/bank/questions/?search=${encodeURIComponent(search)}`,
    undefined,
    token,
  )
  const row = body.results.find((result) => result.text.en === search)
  if (!row) throw new Error(`no bank question "${search}"`)
  return (await server.api<BankQuestion>('GET', `/api/admin/bank/questions/${row.id}/`, undefined, token)).body
}

beforeAll(async () => {
  server = journey.server
  token = await createAdmin(server, ADMIN)
  for (const n of [1, 2]) {
    const { status, body } = await server.api<{ id: number }>(
      'POST',
      '/api/admin/bank/questions/',
      {
        text: { en: `Where does the Koshi rise? (${n})`, ne: '' },
        options: [
          { text: { en: 'Tibet' }, is_correct: true },
          { text: { en: 'Terai' }, is_correct: false },
        ],
      },
      token,
    )
    expect(status).toBe(201)
    koshi.push(body.id)
  }
  quizId = await createQuiz(server, token, {
    title: { en: 'JEE Advanced mock', ne: 'जेईई नमुना' },
    duration_minutes: 30,
    questions: [
      {
        text: { en: 'Placeholder?', ne: '' },
        options: [
          { text: { en: 'Yes' }, is_correct: true },
          { text: { en: 'No' }, is_correct: false },
        ],
      },
    ],
  })
})

describe('question types in the bank', () => {
  it('writes a question with several right options at 1280 px, in English', async () => {
    const page = await journey.open({ user: ADMIN, viewport: DESKTOP })
    await page.goto('/admin/bank')
    await waitForHeading(page, enBank.title)
    await page.getByRole('button', { name: enBank.new_question }).click()
    const form = page.locator('.admin-question-form')
    await form.getByRole('radio', { name: enAdmin.types.type_multiple }).check()
    await form.getByLabel(enAdmin.question_form.text_en).fill('Which of these are prime?')
    for (const [n, text] of ['2', '4', '7', '9'].entries()) {
      const option = form.getByRole('group', { name: interpolate(enAdmin.question_form.option, { n: n + 1 }) })
      await option.getByLabel(enAdmin.question_form.option_text_en).fill(text)
    }
    await form.getByRole('checkbox', { name: interpolate(enAdmin.question_form.correct_named, { n: 3 }) }).check()
    await expectAccessible(page)
    await screenshot(page, 'question-types-multiple-en-desktop')
    await form.getByRole('button', { name: enAdmin.question_form.save }).click()
    await page.getByText(enBank.saved).waitFor()
    const stored = await bankRow('Which of these are prime?')
    expect(stored.type).toBe('multiple')
    expect(stored.options.map((option) => option.is_correct)).toEqual([true, false, true, false])
  })

  it('writes a numeric question at 360 px, in Nepali, with the preview of what a learner may type', async () => {
    const page = await journey.open({ user: ADMIN, viewport: PHONE, language: 'ne' })
    await page.goto('/admin/bank')
    await waitForHeading(page, neBank.title)
    await page.getByRole('button', { name: neBank.new_question }).click()
    const form = page.locator('.admin-question-form')
    await form.getByRole('radio', { name: neAdmin.types.type_numeric }).check()
    await form.getByLabel(neAdmin.question_form.text_en).fill('g in m/s² at sea level?')
    await form.getByLabel(neAdmin.question_form.text_ne).fill('समुद्री सतहमा g कति हुन्छ?')
    await form.getByLabel(neAdmin.types.numeric.value, { exact: true }).fill('9.8')
    await form.getByLabel(neAdmin.types.numeric.tolerance).fill('0.1')
    await form.getByLabel(neAdmin.types.numeric.decimals).fill('1')
    await form
      .getByText(interpolate(neAdmin.types.numeric.accepts_range, { low: '9.7', high: '9.9' }), { exact: false })
      .waitFor()
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'question-types-numeric-ne-phone')
    await form.getByRole('button', { name: neAdmin.question_form.save }).click()
    await page.getByText(neBank.saved).waitFor()
    const stored = await bankRow('g in m/s² at sea level?')
    expect(stored).toMatchObject({ type: 'numeric', options: [], answer: { value: 9.8, tolerance: 0.1 }, decimals: 1 })
  })
})

describe('passages', () => {
  it('writes a passage with two questions in order at 360 px, in English', async () => {
    const page = await journey.open({ user: ADMIN, viewport: PHONE })
    await page.goto('/admin/bank')
    await page.getByRole('link', { name: enBank.passages.link }).click()
    await waitForHeading(page, enBank.passages.title)
    await page.getByRole('button', { name: enBank.passages.new }).click()
    await page.getByLabel(enBank.passages.text_en).fill('The Koshi rises in Tibet and enters Nepal at the east.')
    await page.getByRole('button', { name: enBank.passages.add_questions }).click()
    const picker = page.getByRole('dialog')
    for (const id of [...koshi].reverse())
      await picker.getByRole('button', { name: interpolate(enBank.paper.add_named, { id }) }).click()
    await picker.getByRole('button', { name: enBank.paper.picker_done }).click()
    await page.getByRole('button', { name: interpolate(enBank.passages.up, { n: 2 }) }).click()
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'passage-editor-en-phone')
    await page.getByRole('button', { name: enBank.passages.save }).click()
    await page.getByText(enBank.passages.saved).waitFor()
    await page.getByText('The Koshi rises in Tibet', { exact: false }).first().waitFor()
    await expectAccessible(page)
    const { body } = await server.api<{ results: { question_ids: number[] }[] }>(
      'GET',
      '/api/admin/bank/passages/?search=Koshi',
      undefined,
      token,
    )
    expect(body.results[0]?.question_ids).toEqual(koshi)
  })

  it('sets a section with the JEE Advanced preset and the passage as one item at 1280 px, in Nepali', async () => {
    const page = await journey.open({ user: ADMIN, viewport: DESKTOP, language: 'ne' })
    await page.goto(`/admin/quiz/${quizId}/paper`)
    const section = page.locator('.paper-section').nth(0)
    await section.waitFor()
    const marking = section.getByRole('group', { name: neBank.paper.multiple_heading })
    await marking.getByRole('button', { name: neBank.paper.preset_jee }).click()
    await section.getByRole('button', { name: neBank.paper.add_passage }).click()
    const picker = page.getByRole('dialog')
    await picker.getByRole('button', { name: neBank.paper.passage_add }).first().click()
    await section.getByText(interpolate(neBank.paper.passage_n, { n: 1 })).waitFor()
    await expectAccessible(page)
    await screenshot(page, 'section-marking-ne-desktop')
    await page.getByRole('button', { name: neBank.paper.save }).click()
    await page.getByText(neBank.paper.saved).waitFor()
    const { body } = await server.api<{ sections: Record<string, unknown>[] }>(
      'GET',
      `/api/admin/quizzes/${quizId}/`,
      undefined,
      token,
    )
    expect(body.sections[0]).toMatchObject({
      marks_correct: 4,
      marks_wrong: 2,
      multiple: { scheme: 'partial', partial_marks: 1 },
      numeric_negative: false,
    })
    expect(body.sections[0]?.items).toContainEqual({ passage_id: expect.any(Number), question_ids: koshi })
  })
})

describe('the printed paper', () => {
  it('prints each type and a passage once before its questions, in Nepali at 360 px', async () => {
    const option = (en: string, is_correct = false) => ({ text: { en, ne: '' }, is_correct })
    const typed = await createQuiz(server, token, {
      title: { en: 'Printed types', ne: 'छापिने प्रकार' },
      duration_minutes: 30,
      sections: [
        {
          items: [
            {
              type: 'multiple',
              text: { en: 'Which are prime?', ne: 'कुन कुन अभाज्य हुन्?' },
              topic: 'Numbers',
              options: [option('2', true), option('4'), option('5', true)],
            },
            {
              passage: { text: { en: 'The Koshi gathers seven rivers.', ne: 'कोशीले सात नदी समेट्छ।' }, image: null },
              items: [
                { text: { en: 'How many rivers?', ne: 'कति नदी?' }, options: [option('Seven', true), option('Three')] },
                { text: { en: 'Which river?', ne: 'कुन नदी?' }, options: [option('Koshi', true), option('Karnali')] },
              ],
            },
            {
              type: 'numeric',
              text: { en: 'Half of 23?', ne: '२३ को आधा?' },
              topic: 'Numbers',
              answer: { value: 11.5, tolerance: 0 },
              decimals: 1,
            },
          ],
        },
      ],
    })
    const { status, body } = await server.api<{ id: number }>(
      'POST',
      `/api/admin/quizzes/${typed}/sittings/`,
      { held_at: '2026-12-01T04:15:00.000Z' },
      token,
    )
    expect(status).toBe(201)
    const page = await journey.open({ user: ADMIN, viewport: PHONE, language: 'ne' })
    await page.goto(`/admin/sittings/${body.id}/print/paper?lang=ne`)
    const booklet = page.getByRole('article', { name: interpolate(neSittings.paper.preview, { set: 'A' }) })
    await booklet.waitFor()
    const passages = booklet.getByRole('region', { name: neSittings.booklet.passage })
    expect(await passages.count()).toBe(1)
    expect(await passages.textContent()).toContain(
      interpolate(neSittings.booklet.passage_questions, { from: 2, to: 3 }),
    )
    expect(await booklet.getByText(neSittings.booklet.choose_several, { exact: true }).count()).toBe(1)
    expect(await booklet.getByText(neSittings.booklet.numeric, { exact: true }).count()).toBe(1)
    expect(await booklet.locator('.booklet__box').count()).toBe(8)
    await expectAccessible(page)
    await expectNoSidewaysScroll(page)
    await screenshot(page, 'print-types-phone-ne')
  })
})
