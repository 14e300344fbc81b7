import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import enQuiz from '../web/src/i18n/locales/en/quiz.json'
import neQuiz from '../web/src/i18n/locales/ne/quiz.json'
import {
  PHONE,
  a11yViolations,
  createAdmin,
  createQuiz,
  setUpJourney,
  type Credentials,
  type TestServer,
  QUIZ_ADMIN as ADMIN,
  QUIZ_LEARNER_PASSWORD as PASSWORD,
} from './fixtures'

// Issue 81 (WEB.md "A blind learner, with TalkBack, in Nepali"): the accessibility tree as Chromium exposes it to
// TalkBack, read through the DevTools protocol (Accessibility.getFullAXTree), on the dashboard, the exam, the report
// and practice, in English and Nepali. It fails on a control without a name, and on a block of text whose language
// (the `lang` it inherits) is not its script's: a Nepali screen showing an English fallback must say lang="en".

const QUIZ = {
  title: { en: 'Kharidar Mock 2', ne: 'खरिदार नमूना २' },
  duration_minutes: 30,
  allowed_attempts: 3,
  questions: [
    {
      text: { en: 'Capital of Nepal?', ne: 'नेपालको राजधानी?' },
      topic: 'General knowledge',
      options: [
        { text: { en: 'Kathmandu', ne: 'काठमाडौं' }, is_correct: true },
        { text: { en: 'Pokhara', ne: 'पोखरा' }, is_correct: false },
      ],
    },
    // No Nepali: a Nepali screen shows it in English, and must say so.
    {
      text: { en: 'Which river flows through Butwal?', ne: '' },
      topic: 'General knowledge',
      options: [
        { text: { en: 'Tinau', ne: '' }, is_correct: true },
        { text: { en: 'Seti', ne: '' }, is_correct: false },
      ],
    },
    // Several right options: checkboxes, not a radio group (issue 78).
    {
      type: 'multiple',
      text: { en: 'Which of these districts are in Lumbini Province?', ne: 'यीमध्ये कुन कुन जिल्ला लुम्बिनी प्रदेशमा पर्छन्?' },
      topic: 'General knowledge',
      options: [
        { text: { en: 'Rupandehi', ne: 'रुपन्देही' }, is_correct: true },
        { text: { en: 'Kaski', ne: 'कास्की' }, is_correct: false },
        { text: { en: 'Dang', ne: 'दाङ' }, is_correct: true },
      ],
    },
  ],
}

const journey = setUpJourney()
let server: TestServer
let quizId: number
let attemptId: number
const listener: Credentials = { username: 'listener1', password: PASSWORD }

beforeAll(async () => {
  server = journey.server
  quizId = await createQuiz(server, await createAdmin(server, ADMIN), QUIZ)
  server.cli('create-learners', ['--count', '1', '--prefix', 'listener', '--password', PASSWORD])
  const token = (await server.login(listener.username, listener.password)).access
  await server.api('GET', `/api/quizzes/${quizId}/`, undefined, token)
  const first = await server.api<{ id: number; options: { id: number }[] }>(
    'GET',
    `/api/quizzes/${quizId}/question/1/`,
    undefined,
    token,
  )
  const submitted = await server.api<{ attempt_id: number }>(
    'POST',
    `/api/quizzes/${quizId}/submit/`,
    { answers: { [first.body.id]: first.body.options[1]!.id } },
    token,
  )
  attemptId = submitted.body.attempt_id
})

interface AXValue {
  value?: unknown
}
interface AXNode {
  ignored: boolean
  role?: AXValue
  name?: AXValue
  backendDOMNodeId?: number
}

const CONTROLS = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'textbox',
  'combobox',
  'tab',
  'menuitem',
  'switch',
  'slider',
  'spinbutton',
  'searchbox',
  'ListBoxOption',
  'option',
])

/** Every control Chromium exposes, with its role and name; those without a name are the failures. */
async function controlsWithoutName(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] }
  await cdp.detach()
  const controls = nodes.filter((node) => !node.ignored && CONTROLS.has(String(node.role?.value ?? '')))
  return {
    count: controls.length,
    unnamed: controls
      .filter((node) => String(node.name?.value ?? '').trim() === '')
      .map((node) => `${String(node.role?.value)} #${node.backendDOMNodeId}`),
    names: controls.map((node) => `${String(node.role?.value)}: ${String(node.name?.value ?? '')}`),
  }
}

/**
 * Text a screen reader reads (text nodes and aria-labels outside hidden subtrees) whose script is not the language
 * it inherits: Devanagari in a lang="en" block, or Latin words in a lang="ne" one. Mixed runs are left alone.
 */
function wrongLanguage(page: Page) {
  return page.evaluate(() => {
    const devanagari = /[\u0900-\u097F]/
    const latinWord = /[A-Za-z]{2,}/
    const found: string[] = []
    const hidden = (element: Element | null) =>
      !element || element.closest('[aria-hidden="true"], script, style, noscript, template, annotation') !== null
    const check = (text: string, element: Element, what: string) => {
      const clean = text.replace(/\s+/g, ' ').trim()
      if (clean === '') return
      const lang = (element.closest('[lang]')?.getAttribute('lang') ?? '').slice(0, 2)
      const ne = devanagari.test(clean)
      const en = latinWord.test(clean)
      if (ne && !en && lang !== 'ne') found.push(`${what} "${clean}" in lang="${lang}"`)
      if (en && !ne && lang !== 'en') found.push(`${what} "${clean}" in lang="${lang}"`)
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement
      if (hidden(parent) || parent!.getClientRects().length === 0) continue
      check(node.nodeValue ?? '', parent!, 'text')
    }
    for (const element of Array.from(document.body.querySelectorAll('[aria-label], img[alt]'))) {
      if (hidden(element)) continue
      check(element.getAttribute('aria-label') ?? element.getAttribute('alt') ?? '', element, 'label')
    }
    return found
  })
}

async function settle(page: Page) {
  await page.locator('main h1').first().waitFor()
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined)
}

describe('the accessibility tree as TalkBack gets it', () => {
  for (const language of ['en', 'ne'] as const) {
    it(`names every control and says every block's language, in ${language === 'en' ? 'English' : 'Nepali'}`, async () => {
      const page = await journey.open({ viewport: PHONE, language, user: listener })
      const problems: string[] = []
      const read = async (screen: string) => {
        await settle(page)
        const tree = await controlsWithoutName(page)
        expect(tree.count, `${screen}: no control found`).toBeGreaterThan(0)
        for (const control of tree.unnamed) problems.push(`${screen}: ${control} has no name`)
        for (const text of await wrongLanguage(page)) problems.push(`${screen}: ${text}`)
        for (const violation of await a11yViolations(page)) problems.push(`${screen}: axe ${violation}`)
        return tree
      }

      await page.goto('/')
      await read('dashboard')
      await page.goto('/practice')
      await read('practice')
      await page.goto(`/results/${attemptId}`)
      await read('report')

      // The exam: question 1 is a group named by its number, its options one radio group; question 2 is an English
      // fallback on a Nepali screen.
      await page.goto(`/quiz/${quizId}`)
      await page.locator('.question__number').first().waitFor()
      const exam = await read('exam, question 1')
      const heading = language === 'en' ? 'Question 1 of 3' : 'प्रश्न १ / ३'
      expect(exam.names.join('\n')).toContain('radio: ')
      await expect.poll(() => page.getByRole('group', { name: new RegExp(heading.replace('/', '.')) }).count()).toBe(1)
      expect(await page.getByRole('radiogroup').count()).toBe(1)
      const next = page.getByRole('button', { name: (language === 'en' ? enQuiz : neQuiz).next, exact: true })
      await next.click()
      await page.getByText('Which river flows through Butwal?').waitFor()
      await read('exam, question 2')
      // Moving put focus on the new question's heading.
      const focused = await page.evaluate(() => document.activeElement?.className ?? '')
      expect(focused).toContain('question__number')
      if (language === 'ne')
        expect(
          await page
            .getByText('Which river flows through Butwal?')
            .evaluate((element) => element.closest('[lang]')?.getAttribute('lang')),
        ).toBe('en')
      // Question 3 has several right options: its options are named checkboxes in a group named by the question.
      await next.click()
      await page
        .getByText(language === 'en' ? 'Which of these districts' : 'यीमध्ये कुन कुन')
        .first()
        .waitFor()
      const several = await read('exam, question 3')
      expect(several.names.filter((name) => name.startsWith('checkbox: '))).toHaveLength(3)
      expect(await page.getByRole('radiogroup').count()).toBe(0)
      expect(problems).toEqual([])
    })
  }
})
