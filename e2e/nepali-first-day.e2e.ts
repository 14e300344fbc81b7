import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { DESKTOP, PHONE, TABLET, createAdmin, createQuiz, expectAccessible, screenshot, setUpJourney } from './fixtures'

// Issue 46 (decision 049) in the browser: no admin screen shows a raw translation key, in either language, even
// when it is the first screen opened; no table breaks a word, learner tables stack at 360 px, admin tables at
// 768 px and up keep their words whole; the bank and the Paper tab show maths rendered, never TeX.

const ADMIN = { username: 'nepali_admin', password: 'Kathmandu-Nepali-77' }
const LEARNER = { username: 'nepalipupil1', password: 'Learner-pass-42' }
const HALF = 'Half of one is $\\frac{1}{2}$'

const question = (en: string, ne: string, topic: string, extra: object = {}) => ({
  text: { en, ne },
  topic,
  options: [
    { text: { en: 'Right', ne: 'सही' }, is_correct: true },
    { text: { en: 'Wrong', ne: 'गलत' }, is_correct: false },
  ],
  ...extra,
})

const journey = setUpJourney()
let quizId: number
let attemptId: number

beforeAll(async () => {
  const { server } = journey
  const adminToken = await createAdmin(server, ADMIN)
  for (const [n, topic] of ['अंकगणित', 'Unanswerable questions', 'सामान्य ज्ञान'].entries()) {
    const { status } = await server.api(
      'POST',
      '/api/admin/bank/questions/',
      question(n === 0 ? HALF : `Bank question ${n} on ${topic}`, `बैंक प्रश्न ${n}`, topic, {
        tags: ['लोकसेवा', 'Intermediate'],
        difficulty: 'medium',
        source: 'Public Service Commission',
      }),
      adminToken,
    )
    expect(status).toBe(201)
  }
  quizId = await createQuiz(server, adminToken, {
    title: { en: 'Nayab Subba first paper', ne: 'नायब सुब्बा पहिलो पत्र' },
    duration_minutes: 30,
    sections: [
      {
        title: { en: 'Quantitative aptitude', ne: 'संख्यात्मक अभिरुचि' },
        marks_correct: 2,
        marks_wrong: 0.4,
        items: [question(HALF, 'एकको आधा $\\frac{1}{2}$', 'अंकगणित'), question('Twice two?', 'दुईको दुई गुणा?', 'अंकगणित')],
      },
      {
        title: { en: 'General knowledge', ne: 'सामान्य ज्ञान' },
        items: [
          question('Capital of Nepal?', 'नेपालको राजधानी?', 'सामान्य ज्ञान'),
          question('Highest peak?', 'सबैभन्दा अग्लो हिमाल?', 'सामान्य ज्ञान'),
        ],
      },
    ],
  })
  server.cli('create-learners', ['--count', '1', '--prefix', 'nepalipupil', '--password', LEARNER.password])
  const { access } = await server.login(LEARNER.username, LEARNER.password)
  const paper = await server.api<{ questions: { id: number; options: { id: number }[] }[] }>(
    'GET',
    `/api/admin/quizzes/${quizId}/`,
    undefined,
    adminToken,
  )
  // One right, one wrong, two unanswered: every column of the report's tables has a figure.
  const [first, second] = paper.body.questions
  const answers = { [first!.id]: first!.options[0]!.id, [second!.id]: second!.options[1]!.id }
  const submitted = await server.api<{ attempt_id: number }>(
    'POST',
    `/api/quizzes/${quizId}/submit/`,
    { answers },
    access,
  )
  expect(submitted.status).toBe(200)
  attemptId = submitted.body.attempt_id
})

/** Waits for a screen to settle: its heading shown and no request still out. */
async function settle(page: Page) {
  await page.locator('main h1').first().waitFor()
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
}

// A raw key reads like `tabs.attempts` or `common.back_to_dashboard`. File names, addresses and "e.g." are not keys.
const RAW_KEY = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?:\.[a-z0-9]+(?:_[a-z0-9]+)*)+\b/g
const NOT_A_KEY = /^(e\.g|i\.e)$|\.(md|xlsx|csv|docx|txt|xml|json|svg|png|jpe?g|com|np|org)$/

/** Text in the main content that reads as a translation key (code, inputs and maths left out). */
async function rawKeys(page: Page): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const found: string[] = []
    const main = document.querySelector('main')!
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement?.closest('code, pre, kbd, samp, textarea, script, style, math')) continue
      found.push(node.textContent ?? '')
    }
    for (const element of main.querySelectorAll('[aria-label], [title], [placeholder]'))
      for (const name of ['aria-label', 'title', 'placeholder']) found.push(element.getAttribute(name) ?? '')
    return found
  })
  return texts
    .flatMap((text) => [...text.matchAll(RAW_KEY)].map((match) => match[0]))
    .filter((key) => !NOT_A_KEY.test(key))
}

/**
 * Words split across two lines inside the table cells matching `selector`: each word's text is measured with a
 * Range, and a word whose boxes sit on two lines is broken. Hidden text (a header kept for screen readers) and
 * formulas are left out; a line may still break after a hyphen or a slash.
 */
async function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const broken: string[] = []
    for (const cell of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement!
        if (parent.closest('math, .visually-hidden')) continue
        let hidden = false
        for (let element: Element | null = parent; element && !hidden; element = element.parentElement)
          hidden = element.getBoundingClientRect().width <= 2
        if (hidden) continue
        for (const word of (node.textContent ?? '').matchAll(/[^\s\-–—/,]+/g)) {
          const range = document.createRange()
          range.setStart(node, word.index)
          range.setEnd(node, word.index + word[0].length)
          const lines = new Set(
            [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.bottom)),
          )
          if (lines.size > 1) broken.push(word[0])
        }
      }
    }
    return broken
  }, selector)
}

/** Cells whose style lets a word be split anywhere. */
async function cellsBreakingAnywhere(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .evaluateAll((cells) =>
      cells.filter((cell) => {
        const style = getComputedStyle(cell)
        return style.wordBreak === 'break-all' || style.overflowWrap === 'anywhere'
      }),
    )
    .then((cells) => cells.length)
}

describe.each(['en', 'ne'] as const)('in %s', (language) => {
  it('shows no raw translation key on any admin screen, each opened first', async () => {
    const screens = [
      '/admin',
      '/admin/quiz/new',
      `/admin/quiz/${quizId}/edit`,
      `/admin/quiz/${quizId}/paper`,
      `/admin/quiz/${quizId}/attempts`,
      `/admin/quiz/${quizId}/statistics`,
      '/admin/bank',
      '/admin/import',
      '/admin/font-converter',
      '/admin/learners',
      '/admin/plans',
      '/admin/payments',
      '/admin/audit',
      '/admin/key-challenges',
    ]
    const page = await journey.open({ viewport: DESKTOP, language, user: ADMIN })
    const found: string[] = []
    for (const screen of screens) {
      await page.goto(screen)
      await settle(page)
      for (const key of await rawKeys(page)) found.push(`${screen}: ${key}`)
    }
    expect(found).toEqual([])
    // The check finds a key when there is one.
    await page.evaluate(() => document.querySelector('main h1')!.append(' tabs.attempts'))
    expect(await rawKeys(page)).toEqual(['tabs.attempts'])
  })

  it('stacks the learner tables at 360 px and breaks no word in them', async () => {
    const page = await journey.open({ viewport: PHONE, language, user: LEARNER })
    await page.goto(`/results/${attemptId}`)
    await settle(page)
    await page.locator('.topic-table tbody tr').first().waitFor()
    const tables = page.locator('main table.stack-table')
    expect(await tables.count()).toBe(2)
    expect(await tables.evaluateAll((all) => all.map((table) => getComputedStyle(table).display))).toEqual([
      'block',
      'block',
    ])
    expect(await brokenWords(page, 'main table th, main table td, .report-summary__count dt')).toEqual([])
    expect(await cellsBreakingAnywhere(page, 'main table th, main table td')).toBe(0)
    // Each figure is named by its column: "Wrong 1" in the stacked row.
    const label = await page
      .locator('.report-sections td')
      .nth(2)
      .evaluate((cell) => getComputedStyle(cell, '::before').content)
    expect(label).toContain(language === 'en' ? 'Wrong' : 'गलत')
    await screenshot(page, `issue46-report-360-${language}`)
    // Stacked, the tables are still tables to assistive technology.
    await expectAccessible(page)
    // The check finds a broken word when there is one.
    await page.addStyleTag({ content: '.report-sections tbody th { width: 4ch; word-break: break-all }' })
    expect((await brokenWords(page, '.report-sections tbody th')).length).toBeGreaterThan(0)

    await page.goto(`/quiz/${quizId}/instructions`)
    await settle(page)
    await page.locator('.sections-table').waitFor()
    expect(await brokenWords(page, 'main table th, main table td')).toEqual([])
    await screenshot(page, `issue46-instructions-360-${language}`)
  })

  for (const [size, viewport] of [
    ['768', TABLET],
    ['1280', DESKTOP],
  ] as const) {
    it(`keeps every word of the admin tables whole at ${size} px, and shows the bank's maths rendered`, async () => {
      const page = await journey.open({ viewport, language, user: ADMIN })
      await page.goto('/admin/bank')
      await settle(page)
      await page.locator('.bank-table tbody tr').first().waitFor()
      // The bank question with maths and the quiz's own (an inline question of a paper joins the bank).
      expect(await page.locator('.bank-table math').count()).toBeGreaterThan(0)
      expect(await page.locator('.bank-table').textContent()).not.toContain('$')
      expect(await brokenWords(page, '.admin-table th, .admin-table td')).toEqual([])
      await screenshot(page, `issue46-bank-${size}-${language}`)

      for (const tab of ['attempts', 'statistics']) {
        await page.goto(`/admin/quiz/${quizId}/${tab}`)
        await settle(page)
        await page.locator('.admin-table tbody tr').first().waitFor()
        expect(await brokenWords(page, '.admin-table th, .admin-table td')).toEqual([])
      }
      await screenshot(page, `issue46-statistics-${size}-${language}`)

      await page.goto(`/admin/quiz/${quizId}/paper`)
      await settle(page)
      await page.locator('.paper-fixed').first().waitFor()
      expect(await page.locator('.paper-fixed math').count()).toBe(1)
      expect(await page.locator('.paper').textContent()).not.toContain('$')
      await screenshot(page, `issue46-paper-${size}-${language}`)
    })
  }
})
