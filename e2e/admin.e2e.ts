import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  PHONE,
  TABLET,
  createAdmin,
  expectAccessible,
  graphemes,
  imageRendered,
  screenshot,
  setUpJourney,
  waitForHeading,
  type TestServer,
  OPTION_SVG,
  digits,
} from './fixtures'

// The admin's journeys of SPEC.md ("Admin routes"; sections 4, 5 and 8) against the real server, at tablet
// and desktop sizes, in English and in Nepali. The server is only called directly to set up users and to
// check what was stored (the UTC timestamps, the correct option); everything an admin does goes through the UI.

const ADMIN = { username: 'admin_e2e', password: 'Harbor-Lantern-73!' }
const LEARNER = { username: 'pupil_e2e1', password: 'Maple-Orbit-2048!' }

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40"><rect width="120" height="40" fill="#1d4ed8"/><circle cx="60" cy="20" r="12" fill="#fbbf24"/></svg>'

const ALGEBRA = {
  title: { en: 'E2E Algebra', ne: '' },
  questions: [
    {
      text: { en: 'What is 2 + 2?', ne: '२ + २ कति हो?' },
      options: [
        { text: { en: '4' }, is_correct: true },
        { text: { en: '5' }, is_correct: false },
      ],
    },
    {
      text: { en: 'What is 3 x 3?' },
      options: [
        { text: { en: '6' }, is_correct: false },
        { text: { en: '9' }, is_correct: true },
      ],
    },
  ],
}
const DOOMED = { title: { en: 'Quiz To Delete' }, questions: ALGEBRA.questions }

const journey = setUpJourney()
let server: TestServer
let adminToken: string
let algebraId: number

async function createThroughUi(page: Page, json: string): Promise<number> {
  await page.getByLabel('Quiz JSON', { exact: true }).fill(json)
  await page.getByRole('button', { name: 'Create Quiz' }).click()
  const status = page.getByRole('status').filter({ hasText: 'Quiz created successfully!' })
  const text = await status.textContent({ timeout: 15_000 })
  const id = Number(/Quiz ID: (\d+)/.exec(text ?? '')?.[1])
  expect(id).toBeGreaterThan(0)
  return id
}

async function adminQuiz(id: number) {
  const { status, body } = await server.api<{
    start_time: string
    end_time: string | null
    questions: {
      text: { en: string }
      image: { svg: string } | null
      options: { is_correct: boolean; image: unknown }[]
    }[]
  }>('GET', `/api/admin/quizzes/${id}/`, undefined, adminToken)
  expect(status).toBe(200)
  return body
}

/** Which option is marked correct (the question's type is a radio group too, and is left out). */
const checkedStates = (page: Page) =>
  page
    .getByRole('radio', { name: /: (correct answer|सही उत्तर)$/ })
    .evaluateAll((radios) => radios.map((radio) => (radio as HTMLInputElement).checked))
const option = (page: Page, n: number, language: 'en' | 'ne' = 'en') =>
  page.getByRole('group', { name: language === 'en' ? `Option ${n}` : digits(`विकल्प ${n}`, 'ne'), exact: true })
const questionItems = (page: Page) => page.locator('.admin-questions__text')

/** The first `n` user-perceived characters plus "..." when cut: what the admin question list must show. */
function previewOf(text: string, n = 80) {
  const parts = graphemes(text)
  return parts.length <= n ? text : `${parts.slice(0, n).join('').trimEnd()}...`
}

beforeAll(async () => {
  server = journey.server
  adminToken = await createAdmin(server, ADMIN)
  server.cli('create-learners', ['--count', '1', '--prefix', 'pupil_e2e', '--password', LEARNER.password])
})

describe('admin guards', () => {
  it('sends visitors to /login', async () => {
    const page = await journey.open()
    for (const path of ['/admin', '/admin/quiz/new', '/admin/quiz/1/edit']) {
      await page.goto(path)
      await page.waitForURL((url) => url.pathname === '/login')
    }
  })

  it('sends learners to / and shows them no Admin Panel link', async () => {
    const page = await journey.open({ user: LEARNER })
    for (const path of ['/admin', '/admin/quiz/new', '/admin/quiz/1/edit']) {
      await page.goto(path)
      await page.waitForURL((url) => url.pathname === '/')
    }
    const nav = page.getByRole('navigation', { name: 'Main navigation' })
    await nav.getByRole('link', { name: 'Dashboard' }).waitFor()
    expect(await nav.getByRole('link', { name: 'Admin Panel' }).count()).toBe(0)
  })

  it('shows admins the Admin Panel link, which opens the Admin Dashboard', async () => {
    const page = await journey.open({ user: ADMIN })
    await page.goto('/')
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Admin Panel' }).click()
    await page.waitForURL((url) => url.pathname === '/admin')
    await waitForHeading(page, 'Admin Dashboard')
  })
})

describe('creating quizzes from JSON (desktop, English)', () => {
  it('shows the empty list, refuses bad JSON, lists a refused quiz’s errors by path and creates valid quizzes', async () => {
    const page = await journey.open({ user: ADMIN })
    await page.goto('/admin')
    await waitForHeading(page, 'Admin Dashboard')
    await page.getByText('No quizzes found. Create one to get started!').waitFor()
    await expectAccessible(page)
    await screenshot(page, 'admin-list-empty-en')

    await page.getByRole('link', { name: '+ Create New Quiz (JSON)' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/quiz/new')
    await waitForHeading(page, 'Admin Panel - Create Quiz')
    const textarea = page.getByLabel('Quiz JSON', { exact: true })
    expect(await textarea.getAttribute('required')).not.toBeNull()
    expect(await textarea.getAttribute('placeholder')).toMatch(/"en".*"ne".*duration_minutes/)
    await expectAccessible(page)
    await screenshot(page, 'admin-create-en')

    await textarea.fill('{"title": {"en": "Broken"')
    await page.getByRole('button', { name: 'Create Quiz' }).click()
    await page.getByRole('alert').filter({ hasText: 'Invalid JSON format. Please check your data.' }).waitFor()

    const refused = {
      title: { en: '' },
      duration_minutes: 0,
      questions: [
        {
          text: { en: 'Two right answers' },
          options: [
            { text: { en: 'A' }, is_correct: true },
            { text: { en: 'B' }, is_correct: true },
          ],
        },
        { text: { en: 'One option' }, options: [{ text: { en: 'Only' }, is_correct: true }] },
      ],
    }
    await textarea.fill(JSON.stringify(refused, null, 2))
    await page.getByRole('button', { name: 'Create Quiz' }).click()
    const failure = page.getByRole('alert').filter({ hasText: 'Failed to create quiz. See the errors below.' })
    await failure.waitFor()
    const lines = await failure.getByRole('listitem').allTextContents()
    for (const path of ['title.en', 'duration_minutes', 'questions.0.options', 'questions.1.options']) {
      expect(
        lines.some((line) => line.startsWith(`${path}: `)),
        `${path} in ${JSON.stringify(lines)}`,
      ).toBe(true)
    }
    await expectAccessible(page)
    await screenshot(page, 'admin-create-errors-en')

    // The documented example on the page is itself a valid quiz.
    await page.getByText('JSON format and an example').click()
    await page.getByRole('button', { name: 'Copy the example into the editor' }).click()
    await page.getByRole('button', { name: 'Create Quiz' }).click()
    const created = page.getByRole('status').filter({ hasText: /Quiz created successfully! Quiz ID: \d+/ })
    await created.waitFor()
    expect(await textarea.inputValue()).toBe('')
    await expectAccessible(page)
    await screenshot(page, 'admin-create-success-en')

    algebraId = await createThroughUi(page, JSON.stringify(ALGEBRA))
    await createThroughUi(page, JSON.stringify(DOOMED))
    await page.getByRole('link', { name: 'Edit this quiz' }).waitFor()

    await page.getByRole('link', { name: 'Back to Admin Dashboard' }).click()
    await waitForHeading(page, 'Admin Dashboard')
    const items = page.locator('.admin-list__item')
    await expect.poll(() => items.count()).toBe(3)
    // Most recently created first, each with its period; an open end reads "No end".
    expect(await page.locator('.admin-list__title').allTextContents()).toEqual([
      'Quiz To Delete',
      'E2E Algebra',
      'General Knowledge',
    ])
    expect(await items.nth(1).locator('.admin-list__period').textContent()).toMatch(/^.+ - No end$/)
    expect(await items.nth(2).locator('.admin-list__period').textContent()).toMatch(/^.+ - .*2030.*$/)
    await expectAccessible(page)
    await screenshot(page, 'admin-list-en')
  })
})

describe('editing quiz details (tablet, Kathmandu time)', () => {
  it('shows local times, saves every field as UTC, keeps them after a reload and removes the end', async () => {
    const page = await journey.open({ user: ADMIN, viewport: TABLET, timezoneId: 'Asia/Kathmandu' })
    await page.goto('/admin')
    await page.getByRole('link', { name: 'Edit E2E Algebra' }).click()
    await page.waitForURL((url) => url.pathname === `/admin/quiz/${algebraId}/edit`)
    await waitForHeading(page, 'Edit Quiz: E2E Algebra')

    const field = (label: string) => page.getByLabel(label, { exact: true })
    // The server's defaults for what the JSON left out (SPEC.md: 90 minutes, 3 attempts, medium).
    expect(await field('Duration (Mins)').inputValue()).toBe('90')
    expect(await field('Allowed Attempts').inputValue()).toBe('3')
    expect(await field('Difficulty').inputValue()).toBe('medium')
    expect(await field('Paid Tier Quiz').isChecked()).toBe(false)
    expect(await field('Shuffle questions').isChecked()).toBe(false)
    expect(await field('Shuffle options').isChecked()).toBe(false)
    expect(await field('End Time').inputValue()).toBe('')
    expect(await field('Start Time').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/)
    await expectAccessible(page)
    await screenshot(page, 'admin-edit-tablet-en')

    await field('Title (English)').fill('E2E Algebra (edited)')
    await field('Title (Nepali)').fill('बीजगणित')
    await field('Start Time').fill('2026-01-15T10:00')
    await field('End Time').fill('2031-01-20T18:30')
    await field('Duration (Mins)').fill('45')
    await field('Allowed Attempts').fill('5')
    await field('Difficulty').selectOption('hard')
    await field('Paid Tier Quiz').check()
    await field('Shuffle questions').check()
    await field('Shuffle options').check()
    await page.getByRole('button', { name: 'Save Details' }).click()
    await page.getByRole('status').filter({ hasText: 'Quiz details updated successfully!' }).waitFor()
    await waitForHeading(page, 'Edit Quiz: E2E Algebra (edited)')

    // Kathmandu is UTC+05:45: the pickers' local times are stored in UTC.
    const stored = await adminQuiz(algebraId)
    expect(stored.start_time).toBe('2026-01-15T04:15:00.000Z')
    expect(stored.end_time).toBe('2031-01-20T12:45:00.000Z')
    expect(stored).toMatchObject({ shuffle_questions: true, shuffle_options: true })

    await page.reload()
    await waitForHeading(page, 'Edit Quiz: E2E Algebra (edited)')
    expect(await field('Title (English)').inputValue()).toBe('E2E Algebra (edited)')
    expect(await field('Title (Nepali)').inputValue()).toBe('बीजगणित')
    expect(await field('Start Time').inputValue()).toBe('2026-01-15T10:00')
    expect(await field('End Time').inputValue()).toBe('2031-01-20T18:30')
    expect(await field('Duration (Mins)').inputValue()).toBe('45')
    expect(await field('Allowed Attempts').inputValue()).toBe('5')
    expect(await field('Difficulty').inputValue()).toBe('hard')
    expect(await field('Paid Tier Quiz').isChecked()).toBe(true)
    expect(await field('Shuffle questions').isChecked()).toBe(true)
    expect(await field('Shuffle options').isChecked()).toBe(true)

    // A refused value: SPEC.md's message plus the server's own words beside the field.
    await field('Duration (Mins)').fill('0')
    await page.getByRole('button', { name: 'Save Details' }).click()
    await page.getByRole('alert').filter({ hasText: 'Error updating quiz details.' }).waitFor()
    const duration = field('Duration (Mins)')
    expect(await duration.getAttribute('aria-invalid')).toBe('true')
    const describedBy = (await duration.getAttribute('aria-describedby')) ?? ''
    expect(await page.locator(`[id="${describedBy.split(' ').pop()}"]`).textContent()).toMatch(/\S/)
    await expectAccessible(page)
    await screenshot(page, 'admin-edit-error-tablet-en')

    await duration.fill('45')
    await page.getByRole('button', { name: 'Clear End Time' }).click()
    expect(await field('End Time').inputValue()).toBe('')
    await page.getByRole('button', { name: 'Save Details' }).click()
    await page.getByRole('status').filter({ hasText: 'Quiz details updated successfully!' }).waitFor()
    expect((await adminQuiz(algebraId)).end_time).toBeNull()
    expect((await adminQuiz(algebraId)).start_time).toBe('2026-01-15T04:15:00.000Z')
    await page.reload()
    await waitForHeading(page, 'Edit Quiz: E2E Algebra (edited)')
    expect(await field('End Time').inputValue()).toBe('')

    await page.getByRole('link', { name: 'Back to Admin Dashboard' }).click()
    const row = page.locator('.admin-list__item').filter({ hasText: 'E2E Algebra (edited)' })
    expect(await row.locator('.admin-list__period').textContent()).toBe('15 Jan 2026, 10:00 - No end')
  })
})

describe('questions (desktop, English)', () => {
  const LONG_TEXT =
    'Which of these numbers is a prime number that is greater than ten and also less than twenty, counting whole numbers only?'

  it('adds a question with an SVG, four options, a single correct one and its preview', async () => {
    const page = await journey.open({ user: ADMIN })
    await page.goto(`/admin/quiz/${algebraId}/edit`)
    await waitForHeading(page, 'Questions', { level: 2 })
    expect(await questionItems(page).allTextContents()).toEqual(['Q1: What is 2 + 2?', 'Q2: What is 3 x 3?'])

    await page.getByRole('button', { name: '+ Add New Question' }).click()
    const formHeading = await waitForHeading(page, 'Add New Question', { level: 3 })
    expect(await formHeading.evaluate((element) => element === document.activeElement)).toBe(true)
    expect(await checkedStates(page)).toEqual([true, false, false, false])

    await page.getByLabel('Question (English)', { exact: true }).fill(LONG_TEXT)
    await page.getByLabel('Question (Nepali)', { exact: true }).fill('कुन संख्या रूढ संख्या हो?')
    await page.getByLabel('Question Image SVG', { exact: true }).fill(SVG)
    await page.getByLabel('Image caption (English)', { exact: true }).fill('A sun over the sea')
    await page.getByLabel('Image caption (Nepali)', { exact: true }).fill('समुद्रमाथि सूर्य')
    await page.getByLabel('Hint (English)', { exact: true }).fill('It has exactly two divisors.')
    await page.getByLabel('Hint (Nepali)', { exact: true }).fill('यसका ठीक दुई भाजक हुन्छन्।')
    await page.getByLabel('Topic', { exact: true }).fill('Number theory')

    // The live preview is an <img> with a data URL, and the browser really draws it.
    const preview = page.getByRole('img', { name: 'A sun over the sea' })
    await preview.waitFor()
    expect(await preview.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG)}`)
    await expect.poll(() => imageRendered(preview)).toBe(true)

    const texts = ['9', '15', '11', '21']
    for (const [index, text] of texts.entries())
      await option(page, index + 1)
        .getByLabel('Option text (English)', { exact: true })
        .fill(text)
    await option(page, 3).getByLabel('Option text (Nepali)', { exact: true }).fill('११')
    await page.getByRole('radio', { name: 'Option 3: correct answer' }).check()
    expect(await checkedStates(page)).toEqual([false, false, true, false])

    await page.getByRole('button', { name: '+ Add Option' }).click()
    await option(page, 5).getByLabel('Option text (English)', { exact: true }).fill('25')
    await page.getByRole('button', { name: 'Remove option 4' }).click()
    expect(await checkedStates(page)).toEqual([false, false, true, false])
    expect(await option(page, 4).getByLabel('Option text (English)', { exact: true }).inputValue()).toBe('25')

    await option(page, 1).getByText('Image (optional)').click()
    await option(page, 1).getByLabel('Option Image SVG', { exact: true }).fill(OPTION_SVG)
    await option(page, 1).getByLabel('Option image caption (English)', { exact: true }).fill('A green square')
    const optionPreview = option(page, 1).getByRole('img', { name: 'A green square' })
    await expect.poll(() => imageRendered(optionPreview)).toBe(true)

    await expectAccessible(page)
    await screenshot(page, 'admin-question-new-en')

    await page.getByRole('button', { name: 'Save Question' }).click()
    await page.getByRole('status').filter({ hasText: 'The question was saved.' }).waitFor()
    expect(await page.getByRole('heading', { name: 'Add New Question' }).count()).toBe(0)
    await expect
      .poll(() => questionItems(page).allTextContents())
      .toEqual(['Q1: What is 2 + 2?', 'Q2: What is 3 x 3?', `Q3: ${previewOf(LONG_TEXT)}`])
    expect(previewOf(LONG_TEXT).endsWith('...')).toBe(true)

    const stored = (await adminQuiz(algebraId)).questions[2]!
    expect(stored.text.en).toBe(LONG_TEXT)
    expect(stored.options.map((o) => o.is_correct)).toEqual([false, false, true, false])
    expect(stored.image?.svg).toContain('<circle')
    expect(stored.options[0]!.image).not.toBeNull()
    await screenshot(page, 'admin-questions-en')
  })

  it('edits a question, moving the correct answer, and keeps the change after a reload', async () => {
    const page = await journey.open({ user: ADMIN })
    await page.goto(`/admin/quiz/${algebraId}/edit`)
    await page.getByRole('button', { name: 'Edit question 3' }).click()
    await waitForHeading(page, 'Edit Question', { level: 3 })
    expect(await page.getByLabel('Question (English)', { exact: true }).inputValue()).toBe(LONG_TEXT)
    expect(await checkedStates(page)).toEqual([false, false, true, false])
    // The option's stored image opens with its preview.
    await expect.poll(() => imageRendered(option(page, 1).getByRole('img', { name: 'A green square' }))).toBe(true)

    await page.getByLabel('Question (English)', { exact: true }).fill('Which number is prime?')
    await page.getByRole('radio', { name: 'Option 2: correct answer' }).check()
    expect(await checkedStates(page)).toEqual([false, true, false, false])
    await page.getByRole('button', { name: 'Save Question' }).click()
    await page.getByRole('status').filter({ hasText: 'The question was saved.' }).waitFor()
    await expect.poll(() => questionItems(page).nth(2).textContent()).toBe('Q3: Which number is prime?')

    await page.reload()
    await page.getByRole('button', { name: 'Edit question 3' }).click()
    await waitForHeading(page, 'Edit Question', { level: 3 })
    expect(await checkedStates(page)).toEqual([false, true, false, false])
    expect(await page.getByLabel('Question (English)', { exact: true }).inputValue()).toBe('Which number is prime?')
    await page.getByRole('button', { name: 'Cancel' }).click()
    expect(await page.getByRole('heading', { name: 'Edit Question' }).count()).toBe(0)
  })

  it('keeps the editor open with the server’s errors when a save is refused', async () => {
    const page = await journey.open({ user: ADMIN })
    await page.goto(`/admin/quiz/${algebraId}/edit`)
    await page.getByRole('button', { name: 'Edit question 3' }).click()
    await waitForHeading(page, 'Edit Question', { level: 3 })
    const optionTwo = option(page, 2).getByLabel('Option text (English)', { exact: true })
    await optionTwo.fill('')
    await page.getByRole('button', { name: 'Save Question' }).click()
    await page.getByRole('alert').filter({ hasText: 'Failed to save the question.' }).waitFor()
    expect(await optionTwo.getAttribute('aria-invalid')).toBe('true')
    expect(await optionTwo.evaluate((element) => element === document.activeElement)).toBe(true)
    await waitForHeading(page, 'Edit Question', { level: 3 })
    await expectAccessible(page)
    await screenshot(page, 'admin-question-error-en')
    await page.getByRole('button', { name: 'Cancel' }).click()
    expect((await adminQuiz(algebraId)).questions[2]!.options[1]!.is_correct).toBe(true)
  })

  it('deletes a question after confirmation', async () => {
    const page = await journey.open({ user: ADMIN })
    await page.goto(`/admin/quiz/${algebraId}/edit`)
    await page.getByRole('button', { name: 'Delete question 1' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete question' })
    await dialog.getByText('Are you sure you want to delete this question?').waitFor()
    await expectAccessible(page)
    await screenshot(page, 'admin-question-delete-en')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(await questionItems(page).count()).toBe(3)

    await page.getByRole('button', { name: 'Delete question 1' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByRole('status').filter({ hasText: 'The question was deleted.' }).waitFor()
    await expect
      .poll(() => questionItems(page).allTextContents())
      .toEqual(['Q1: What is 3 x 3?', 'Q2: Which number is prime?'])
  })
})

describe('deleting a quiz (desktop, English)', () => {
  it('asks first, then removes it from the list', async () => {
    const page = await journey.open({ user: ADMIN })
    await page.goto('/admin')
    await page.getByRole('button', { name: 'Delete Quiz To Delete' }).click()
    const dialog = page.getByRole('dialog', { name: 'Delete quiz' })
    await dialog.getByText('Are you sure you want to delete this quiz permanently?').waitFor()
    await expectAccessible(page)
    await screenshot(page, 'admin-quiz-delete-en')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(await page.locator('.admin-list__item').count()).toBe(3)

    await page.getByRole('button', { name: 'Delete Quiz To Delete' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click()
    await page.getByRole('status').filter({ hasText: 'The quiz was deleted.' }).waitFor()
    await expect
      .poll(() => page.locator('.admin-list__title').allTextContents())
      .toEqual(['E2E Algebra (edited)', 'General Knowledge'])
  })

  it('says "Quiz not found." for a quiz that does not exist', async () => {
    const page = await journey.open({ user: ADMIN })
    await page.goto('/admin/quiz/987654/edit')
    await page.getByRole('alert').filter({ hasText: 'Quiz not found.' }).waitFor()
    await page.goto('/admin/quiz/not-a-number/edit')
    await page.getByRole('alert').filter({ hasText: 'Quiz not found.' }).waitFor()
    await screenshot(page, 'admin-edit-not-found-en')
  })
})

describe('what learners see', () => {
  it('shows the admin’s changes on the learner dashboard, and not the deleted quiz', async () => {
    const page = await journey.open({ user: LEARNER })
    await page.goto('/')
    const card = page.locator('li').filter({ has: page.getByRole('heading', { name: 'E2E Algebra (edited)' }) })
    await card.waitFor()
    const text = (await card.textContent()) ?? ''
    expect(text).toContain('45 minutes')
    expect(text).toContain('Hard')
    expect(text).toContain('Paid')
    expect(text).toContain('5 of 5')
    expect(text).toContain('This quiz is for paid members.')
    expect(await card.locator('dd').nth(1).textContent()).toBe('2')
    await page.getByRole('heading', { name: 'General Knowledge' }).waitFor()
    expect(await page.getByRole('heading', { name: 'Quiz To Delete' }).count()).toBe(0)
  })
})

describe('the admin screens in Nepali (tablet)', () => {
  const NEPALI_TEXT =
    'तलका मध्ये कुन संख्या अभाज्य हो भनेर छान्नुहोस्, जुन दशभन्दा ठूलो र बीसभन्दा सानो पूर्ण संख्या हो र जसका ठीक दुई भाजक मात्र छन्? ध्यान दिनुहोस्: एक र आफैंबाहेक अरू कुनै संख्याले यसलाई निःशेष भाग गर्न सक्दैन।'

  it('shows every admin screen and message in Nepali', async () => {
    const page = await journey.open({ user: ADMIN, viewport: TABLET, language: 'ne' })
    await page.goto('/admin')
    await waitForHeading(page, 'एडमिन ड्यासबोर्ड')
    await page.locator('.admin-list__item').first().waitFor()
    expect(await page.locator('.admin-list__title').first().textContent()).toBe('बीजगणित')
    await expectAccessible(page)
    await screenshot(page, 'admin-list-ne')

    await page.getByRole('link', { name: '+ नयाँ क्विज बनाउनुहोस् (JSON)' }).click()
    await waitForHeading(page, 'एडमिन प्यानल - क्विज बनाउनुहोस्')
    await page.getByText('JSON ढाँचा र एउटा उदाहरण').click()
    await expectAccessible(page)
    await screenshot(page, 'admin-create-ne')
    const textarea = page.getByLabel('क्विज JSON', { exact: true })
    await textarea.fill('not json')
    await page.getByRole('button', { name: 'क्विज बनाउनुहोस्' }).click()
    await page.getByRole('alert').filter({ hasText: 'JSON ढाँचा अमान्य छ। कृपया आफ्नो डेटा जाँच गर्नुहोस्।' }).waitFor()
    await textarea.fill('{"title": {"en": "x"}, "questions": []}')
    await page.getByRole('button', { name: 'क्विज बनाउनुहोस्' }).click()
    const failure = page.getByRole('alert').filter({ hasText: 'क्विज बनाउन सकिएन। तलका त्रुटिहरू हेर्नुहोस्।' })
    await failure.waitFor()
    expect(await failure.getByRole('listitem').first().textContent()).toMatch(/^questions: /)
    await screenshot(page, 'admin-create-errors-ne')

    await page.goto(`/admin/quiz/${algebraId}/edit`)
    await waitForHeading(page, 'क्विज सम्पादन: बीजगणित')
    await waitForHeading(page, 'क्विज विवरण', { level: 2 })
    expect(await page.getByLabel('अवधि (मिनेट)', { exact: true }).inputValue()).toBe('45')
    await page.getByRole('button', { name: 'विवरण सुरक्षित गर्नुहोस्' }).click()
    await page.getByRole('status').filter({ hasText: 'क्विज विवरण सफलतापूर्वक अद्यावधिक भयो!' }).waitFor()
    await expectAccessible(page)
    await screenshot(page, 'admin-edit-ne')

    await page.getByRole('button', { name: '+ नयाँ प्रश्न थप्नुहोस्' }).click()
    await waitForHeading(page, 'नयाँ प्रश्न थप्नुहोस्', { level: 3 })
    await page.getByLabel('प्रश्न (अंग्रेजी)', { exact: true }).fill('Which number is prime (Nepali run)?')
    await page.getByLabel('प्रश्न (नेपाली)', { exact: true }).fill(NEPALI_TEXT)
    await page.getByLabel('प्रश्नको चित्र (SVG)', { exact: true }).fill(SVG)
    await page.getByLabel('चित्रको क्याप्सन (नेपाली)', { exact: true }).fill('समुद्रमाथि सूर्य')
    await expect.poll(() => imageRendered(page.getByRole('img', { name: 'समुद्रमाथि सूर्य' }))).toBe(true)
    for (const [index, text] of ['9', '13', '15', '21'].entries()) {
      await option(page, index + 1, 'ne')
        .getByLabel('विकल्पको पाठ (अंग्रेजी)', { exact: true })
        .fill(text)
    }
    await page.getByRole('radio', { name: 'विकल्प २: सही उत्तर' }).check()
    expect(await checkedStates(page)).toEqual([false, true, false, false])
    await expectAccessible(page)
    await screenshot(page, 'admin-question-new-ne')
    await page.getByRole('button', { name: 'प्रश्न सुरक्षित गर्नुहोस्' }).click()
    await page.getByRole('status').filter({ hasText: 'प्रश्न सुरक्षित गरियो।' }).waitFor()
    // The list previews the Nepali text, cut at 80 user-perceived characters without splitting a syllable.
    await expect.poll(() => questionItems(page).nth(2).textContent()).toBe(`प्र.३: ${previewOf(NEPALI_TEXT)}`)
    expect(previewOf(NEPALI_TEXT).endsWith('...')).toBe(true)
    await screenshot(page, 'admin-questions-ne')

    await page.getByRole('button', { name: 'प्रश्न ३ सम्पादन गर्नुहोस्' }).click()
    await page.getByLabel('प्रश्न (अंग्रेजी)', { exact: true }).fill('')
    await page.getByRole('button', { name: 'प्रश्न सुरक्षित गर्नुहोस्' }).click()
    await page.getByRole('alert').filter({ hasText: 'प्रश्न सुरक्षित गर्न सकिएन।' }).waitFor()
    await screenshot(page, 'admin-question-error-ne')
    await page.getByRole('button', { name: 'रद्द गर्नुहोस्' }).click()

    await page.getByRole('button', { name: 'प्रश्न ३ मेटाउनुहोस्' }).click()
    const dialog = page.getByRole('dialog', { name: 'प्रश्न मेटाउनुहोस्' })
    await dialog.getByText('के तपाईं यो प्रश्न मेटाउन निश्चित हुनुहुन्छ?').waitFor()
    await expectAccessible(page)
    await screenshot(page, 'admin-question-delete-ne')
    await dialog.getByRole('button', { name: 'मेटाउनुहोस्', exact: true }).click()
    await page.getByRole('status').filter({ hasText: 'प्रश्न मेटाइयो।' }).waitFor()
    await expect.poll(() => questionItems(page).count()).toBe(2)

    await page.goto('/admin')
    await page.getByRole('button', { name: 'सामान्य ज्ञान मेटाउनुहोस्' }).click()
    await page
      .getByRole('dialog', { name: 'क्विज मेटाउनुहोस्' })
      .getByText('के तपाईं यो क्विज स्थायी रूपमा मेटाउन निश्चित हुनुहुन्छ?')
      .waitFor()
    await screenshot(page, 'admin-quiz-delete-ne')
    await page.getByRole('dialog').getByRole('button', { name: 'रद्द गर्नुहोस्' }).click()

    await page.goto('/admin/quiz/987654/edit')
    await page.getByRole('alert').filter({ hasText: 'क्विज भेटिएन।' }).waitFor()
    await screenshot(page, 'admin-edit-not-found-ne')
  })

  it('is usable on a phone too', async () => {
    const page = await journey.open({ user: ADMIN, viewport: PHONE })
    await page.goto(`/admin/quiz/${algebraId}/edit`)
    await waitForHeading(page, 'Edit Quiz: E2E Algebra (edited)')
    await page.getByRole('button', { name: '+ Add New Question' }).click()
    await waitForHeading(page, 'Add New Question', { level: 3 })
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
    await screenshot(page, 'admin-question-new-phone-en')
  })
})

describe('drafts (docs/decisions/048)', () => {
  const noOverflow = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

  it('makes a draft from the New quiz form on a phone, which cannot be published empty and learners do not see', async () => {
    const page = await journey.open({ user: ADMIN, viewport: PHONE })
    await page.goto('/admin')
    await page.getByRole('link', { name: '+ New quiz' }).click()
    await waitForHeading(page, 'New quiz')
    expect(await page.getByLabel('Duration (Mins)').inputValue()).toBe('90')
    expect(await noOverflow(page)).toBeLessThanOrEqual(0)
    await page.getByLabel('Title (English)').fill('E2E Draft Mock')
    await page.getByRole('button', { name: 'Create draft' }).click()
    await waitForHeading(page, 'Edit Quiz: E2E Draft Mock')
    await page.locator('.admin-status').getByText('Draft', { exact: true }).waitFor()
    await page.getByRole('button', { name: 'Publish' }).click()
    await page
      .getByRole('alert')
      .filter({ hasText: 'This quiz has no questions yet. Add questions to its paper before publishing it.' })
      .waitFor()
    expect(await noOverflow(page)).toBeLessThanOrEqual(0)
    await screenshot(page, 'admin-draft-phone-en')

    const learner = await journey.open({ user: LEARNER })
    await learner.goto('/')
    await learner.getByRole('heading', { name: 'General Knowledge' }).waitFor()
    expect(await learner.getByRole('heading', { name: 'E2E Draft Mock' }).count()).toBe(0)
  })

  it('duplicates a quiz as a draft and publishes the copy, in Nepali', async () => {
    const page = await journey.open({ user: ADMIN, viewport: PHONE, language: 'ne' })
    await page.goto(`/admin/quiz/${algebraId}/edit`)
    await page.getByRole('button', { name: 'प्रतिलिपि बनाउनुहोस्' }).click()
    await page.getByRole('link', { name: 'प्रतिलिपि खोल्नुहोस्' }).click()
    await page.locator('.admin-status').getByText('ड्राफ्ट', { exact: true }).waitFor()
    expect(page.url()).not.toContain(`/admin/quiz/${algebraId}/`)
    await page.getByRole('button', { name: 'प्रकाशित गर्नुहोस्' }).click()
    await page.getByText('क्विज प्रकाशित भयो: अब विद्यार्थीले देख्न सक्छन्।').waitFor()
    expect(await noOverflow(page)).toBeLessThanOrEqual(0)
    await screenshot(page, 'admin-duplicate-published-phone-ne')
  })
})
