import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, polyfillDialog, renderRoutes } from '../../test/page-test-utils'
import { questionStatus } from './question-status'
import type { ReportCard } from './results.api'
import { Component as ReportPage } from './report-page'

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><circle cx="2" cy="2" r="2"/></svg>'
const longEn =
  'Which of the following rivers flows through the Kathmandu Valley and joins the Ganges in India eventually?'
const longNe = 'तलका मध्ये कुन नदी काठमाडौं उपत्यका हुँदै बग्छ र अन्ततः भारतमा गङ्गा नदीमा मिसिन्छ? क्षत्रिय स्ते क्षत्रिय अझै'

const report: ReportCard = {
  id: 30,
  attempt_number: 1,
  quiz: { id: 3, title: { en: 'Science Basics', ne: 'विज्ञानका आधारहरू' } },
  score: 0.8,
  correct: 1,
  incorrect: 1,
  unanswered: 1,
  completed_timestamp: '2026-11-20T08:00:00.000Z',
  questions: [
    {
      id: 1,
      text: { en: longEn, ne: longNe },
      hint: { en: 'Think of Pashupatinath.', ne: 'पशुपतिनाथ सम्झनुहोस्।' },
      topic: 'geography',
      image: { svg_content: SVG, caption: { en: 'A map', ne: 'नक्सा' } },
      options: [
        {
          id: 11,
          text: { en: 'Bagmati', ne: 'बागमती' },
          is_correct: true,
          image: { svg_content: SVG, caption: { en: 'River', ne: 'नदी' } },
        },
        { id: 12, text: { en: 'Koshi', ne: 'कोशी' }, is_correct: false, image: null },
      ],
    },
    {
      id: 2,
      text: { en: 'Short question?', ne: '' },
      hint: null,
      topic: '',
      image: null,
      options: [
        { id: 21, text: { en: 'Yes', ne: 'हो' }, is_correct: true, image: null },
        { id: 22, text: { en: 'No', ne: 'होइन' }, is_correct: false, image: null },
      ],
    },
    {
      id: 3,
      text: { en: 'Unanswered one?', ne: '' },
      hint: { en: '', ne: '' },
      topic: '',
      image: null,
      options: [
        { id: 31, text: { en: 'A', ne: '' }, is_correct: true, image: null },
        { id: 32, text: { en: 'B', ne: '' }, is_correct: false, image: null },
      ],
    },
  ],
  answers: [
    { question: 1, selected_option: 11 },
    { question: 2, selected_option: 22 },
    { question: 3, selected_option: null },
  ],
}

function renderReport(response: { status?: number; body?: unknown }, language: 'en' | 'ne' = 'en') {
  fakeNetwork({ 'GET /api/results/30/': () => response })
  return renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/30', language })
}

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

describe('questionStatus', () => {
  const question = report.questions[0]!
  it('is correct, incorrect or unanswered', () => {
    expect(questionStatus(question, 11)).toBe('correct')
    expect(questionStatus(question, 12)).toBe('incorrect')
    expect(questionStatus(question, null)).toBe('unanswered')
    expect(questionStatus(question, undefined)).toBe('unanswered')
  })
})

describe('report page', () => {
  it('shows the title, final score, counts and a row per question with a 60-character preview and a badge', async () => {
    renderReport({ body: report })
    expect(await screen.findByRole('heading', { level: 1, name: 'Science Basics' })).toBeInTheDocument()
    expect(screen.getByText('0.80')).toBeInTheDocument()
    const rows = within(screen.getByRole('list')).getAllByRole('button')
    expect(rows).toHaveLength(3)
    expect(rows[0]).toHaveTextContent(`${longEn.slice(0, 60).trimEnd()}...`)
    expect(rows[0]).toHaveTextContent('Correct')
    expect(rows[1]).toHaveTextContent('Short question?')
    expect(rows[1]).not.toHaveTextContent('...')
    expect(rows[1]).toHaveTextContent('Incorrect')
    expect(rows[2]).toHaveTextContent('Unanswered')
  })

  it('opens a detail modal with the answers marked, the image, option images and the hint', async () => {
    const user = userEvent.setup()
    renderReport({ body: report })
    await user.click((await screen.findAllByRole('button', { name: /Which of the following/ }))[0]!)
    const dialog = screen.getByRole('dialog', { name: 'Question 1' })
    expect(within(dialog).getByText(longEn)).toBeInTheDocument()
    expect(within(dialog).getByRole('img', { name: 'A map' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml/),
    )
    expect(within(dialog).getByText('River')).toBeInTheDocument()
    expect(dialog.querySelectorAll('img')).toHaveLength(2)
    const options = within(dialog).getAllByRole('listitem')
    expect(options[0]).toHaveTextContent('Your answer')
    expect(options[0]).toHaveTextContent('Correct answer')
    expect(options[1]).not.toHaveTextContent('answer')
    expect(within(dialog).getByText('Think of Pashupatinath.')).toBeInTheDocument()
  })

  it('marks a wrong answer apart from the correct one, and leaves out an empty hint', async () => {
    const user = userEvent.setup()
    renderReport({ body: report })
    await user.click(await screen.findByRole('button', { name: /Short question/ }))
    let options = within(screen.getByRole('dialog', { name: 'Question 2' })).getAllByRole('listitem')
    expect(options[0]).toHaveTextContent('Correct answer')
    expect(options[0]).not.toHaveTextContent('Your answer')
    expect(options[1]).toHaveTextContent('Your answer')
    expect(options[1]).toHaveClass('report-option--incorrect')
    await user.click(screen.getByRole('button', { name: 'Close' }))

    await user.click(screen.getByRole('button', { name: /Unanswered one/ }))
    const dialog = screen.getByRole('dialog', { name: 'Question 3' })
    options = within(dialog).getAllByRole('listitem')
    expect(dialog).toHaveTextContent('You did not answer this question.')
    expect(dialog).not.toHaveTextContent('Your answer')
    expect(dialog).not.toHaveTextContent('Hint')
  })

  it('previews in the current language without splitting Devanagari', async () => {
    renderReport({ body: report }, 'ne')
    expect(await screen.findByRole('heading', { level: 1, name: 'विज्ञानका आधारहरू' })).toBeInTheDocument()
    const first = within(screen.getByRole('list')).getAllByRole('button')[0]!
    const text = first.querySelector('.analysis__text')?.textContent ?? ''
    expect(text.endsWith('...')).toBe(true)
    expect(text).not.toMatch(/[\u094D]\.\.\.$/)
    expect(longNe.startsWith(text.slice(0, -3))).toBe(true)
    // The 60th character is the conjunct "त्रि" (four code points): kept whole, not cut after "त्".
    expect(text.slice(0, -3).endsWith('क्षत्रि')).toBe(true)
    expect(first).toHaveTextContent('सही')
  })

  it('shows the load error', async () => {
    renderReport({ status: 404, body: { detail: 'x', code: 'not_found' } })
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load this report card.')
  })
})
