import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, polyfillDialog, renderRoutes } from '../../test/page-test-utils'
import { fullMarksOf, givenAnswer, questionStatus } from './question-status'
import type { ReportCard } from './results.api'
import { Component as ReportPage } from './report-page'

const text = (en: string, ne = '') => ({ en, ne, html: null })
const option = (id: number, en: string, is_correct: boolean) => ({ id, text: text(en), is_correct, image: null })
const answer = (question: number, rest: Partial<ReportCard['answers'][number]>): ReportCard['answers'][number] => ({
  question,
  selected_option: null,
  marked: false,
  time_spent_seconds: 10,
  flag: null,
  regrade: null,
  ...rest,
})

// JEE Advanced marking (4, -2, 1 a right option): A and C of the right A, B, C gain +2 of 4.
const multiple = {
  id: 1,
  type: 'multiple' as const,
  text: text('Which are prime?', 'कुन अभाज्य हुन्?'),
  hint: null,
  topic: '',
  image: null,
  options: [option(11, 'Two', true), option(12, 'Three', true), option(13, 'Five', true), option(14, 'Nine', false)],
}
const numeric = (id: number, key: ReportCard['questions'][number]['answer']) => ({
  id,
  type: 'numeric' as const,
  text: text(`Numeric ${id}?`),
  hint: null,
  topic: '',
  image: null,
  options: [],
  answer: key,
})

const card: ReportCard = {
  id: 30,
  attempt_number: 1,
  quiz: { id: 3, title: text('Types'), live: false },
  ranked: true,
  mode: 'online',
  score: 6,
  marking: 'none',
  written: null,
  correct: 1,
  incorrect: 2,
  partial: 1,
  unanswered: 1,
  completed_timestamp: '2026-11-20T08:00:00.000Z',
  challenge_closes_at: '2026-11-27T08:00:00.000Z',
  key_withheld: null,
  key_withheld_until: null,
  questions: [
    multiple,
    numeric(2, { value: 11.5, tolerance: 0.1 }),
    numeric(3, { min: 11, max: 12 }),
    numeric(4, { value: 7, tolerance: 0 }),
  ],
  answers: [
    answer(1, { selected_option_ids: [11, 13], marks: 2 }),
    answer(2, { value: '11.55', marks: 4 }),
    answer(3, { value: '12.5', marks: -2 }),
    answer(4, { value: null, marks: 0 }),
  ],
  analysis: {
    topics: [],
    negative_marks: 2,
    participants: 1,
    rank: 1,
    percentile: 100,
    average_score: 6,
    highest_score: 6,
  },
  max_score: 16,
  time_vs_top: [],
  sections: [{ title: text(''), score: 4, max_score: 16, correct: 1, incorrect: 2, unanswered: 1 }],
}

function renderReport(body: ReportCard, language: 'en' | 'ne' = 'en') {
  fakeNetwork({ 'GET /api/results/30/': () => ({ body }) })
  return renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/30', language })
}

const badges = () =>
  within(screen.getByRole('list')) // the question list
    .getAllByRole('button')
    .map((row) => row.querySelector('.badge:last-child')?.textContent)

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

describe('questionStatus of the new types', () => {
  it('marks a multiple answer correct only for the exact set, partial when it gained marks short of it', () => {
    const given = (ids: number[] | null, marks: number | null) =>
      givenAnswer(answer(1, { selected_option_ids: ids, marks }))
    expect(questionStatus(multiple, given([11, 12, 13], 4))).toBe('correct')
    expect(questionStatus(multiple, given([13, 11, 12], 4))).toBe('correct')
    expect(questionStatus(multiple, given([11, 13], 2))).toBe('partial')
    expect(questionStatus(multiple, given([11, 13], -2))).toBe('incorrect')
    expect(questionStatus(multiple, given([11, 14], -2))).toBe('incorrect')
    expect(questionStatus(multiple, given(null, 0))).toBe('unanswered')
    expect(questionStatus(multiple, given([11], null), true)).toBe('answered')
  })

  it('marks a numeric answer correct within value ± tolerance or the range, ends included', () => {
    const typed = (value: string | null) => givenAnswer(answer(2, { value }))
    const tolerance = numeric(2, { value: 11.5, tolerance: 0.1 })
    const range = numeric(3, { min: 11, max: 12 })
    expect(questionStatus(tolerance, typed('11.4'))).toBe('correct')
    expect(questionStatus(tolerance, typed('11.6'))).toBe('correct')
    expect(questionStatus(tolerance, typed('11.61'))).toBe('incorrect')
    expect(questionStatus(range, typed('11'))).toBe('correct')
    expect(questionStatus(range, typed('12.01'))).toBe('incorrect')
    expect(questionStatus(range, typed(null))).toBe('unanswered')
  })

  it('reads a question’s full marks from sections that agree, and none from sections that differ', () => {
    expect(fullMarksOf(card)).toBe(4)
    const two = [card.sections[0]!, { ...card.sections[0]!, max_score: 3, correct: 0, incorrect: 1, unanswered: 2 }]
    expect(fullMarksOf({ ...card, sections: two })).toBeNull()
    expect(fullMarksOf({ ...card, sections: [] })).toBe(4)
  })
})

describe('report of multiple and numeric questions', () => {
  it('counts a partly right answer apart, so the counts add up to the questions', async () => {
    renderReport(card)
    const counts = await screen.findByText('Partly right', { selector: 'dt' })
    expect(counts.nextElementSibling).toHaveTextContent('1')
    expect(screen.getByText('Incorrect', { selector: 'dt' }).nextElementSibling).toHaveTextContent('1')
    expect(badges()).toEqual(['Partly right', 'Correct', 'Incorrect', 'Unanswered'])
  })

  it('shows the ticked set beside the right set, each option tagged, and the partial marks as such', async () => {
    const user = userEvent.setup()
    renderReport(card)
    await user.click(await screen.findByRole('button', { name: /Which are prime/ }))
    const dialog = screen.getByRole('dialog', { name: 'Question 1' })
    expect(within(dialog).getByText('Partly right: +2.00 of 4')).toBeInTheDocument()
    expect(within(dialog).getByText('You ticked').nextElementSibling).toHaveTextContent('A, C')
    expect(within(dialog).getByText('The right set').nextElementSibling).toHaveTextContent('A, B, C')
    const options = within(dialog).getAllByRole('listitem')
    expect(options[0]).toHaveTextContent(/Your answer.*Correct answer/)
    expect(options[1]).toHaveTextContent('Correct answer')
    expect(options[1]).not.toHaveTextContent('Your answer')
    expect(options[3]).not.toHaveTextContent(/answer/)
  })

  it('shows a typed number beside the accepted value ± tolerance, or the range', async () => {
    const user = userEvent.setup()
    renderReport(card)
    await user.click(await screen.findByRole('button', { name: /Numeric 2/ }))
    let dialog = screen.getByRole('dialog', { name: 'Question 2' })
    expect(within(dialog).getByText('Your answer').nextElementSibling).toHaveTextContent('11.55')
    expect(within(dialog).getByText('Accepted answer').nextElementSibling).toHaveTextContent('11.5 ± 0.1')
    expect(within(dialog).queryByRole('list')).not.toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    await user.click(screen.getByRole('button', { name: /Numeric 3/ }))
    dialog = screen.getByRole('dialog', { name: 'Question 3' })
    expect(within(dialog).getByText('Your answer').nextElementSibling).toHaveTextContent('12.5')
    expect(within(dialog).getByText('Accepted answer').nextElementSibling).toHaveTextContent('any number from 11 to 12')
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    await user.click(screen.getByRole('button', { name: /Numeric 4/ }))
    dialog = screen.getByRole('dialog', { name: 'Question 4' })
    expect(within(dialog).queryByText('Your answer')).not.toBeInTheDocument()
    expect(within(dialog).getByText('Accepted answer').nextElementSibling).toHaveTextContent(/^7$/)
    expect(within(dialog).getByText('You did not answer this question.')).toBeInTheDocument()
  })

  it('shows a question’s passage folded above it, opened on a tap, in either language', async () => {
    const user = userEvent.setup()
    const koshi = { id: 7, text: text('The Koshi floods the Terai.', 'कोशीले तराई डुबाउँछ।'), image: null }
    const withPassage = { ...card, questions: card.questions.map((q, i) => (i === 1 ? { ...q, passage: koshi } : q)) }
    renderReport(withPassage)
    await user.click(await screen.findByRole('button', { name: /Numeric 2/ }))
    const dialog = screen.getByRole('dialog', { name: 'Question 2' })
    const passage = within(dialog).getByText('Read the passage').closest('details')!
    expect(passage).not.toHaveAttribute('open')
    await user.click(within(dialog).getByText('Read the passage'))
    expect(passage).toHaveAttribute('open')
    expect(within(passage).getByText('The Koshi floods the Terai.')).toBeVisible()
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    await user.click(screen.getByRole('button', { name: /Numeric 3/ }))
    expect(within(screen.getByRole('dialog', { name: 'Question 3' })).queryByText('Read the passage')).toBeNull()
  })

  it('says it all in Nepali, with Devanagari digits', async () => {
    const user = userEvent.setup()
    renderReport(card, 'ne')
    expect(await screen.findByText('आंशिक सही', { selector: 'dt' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: /कुन अभाज्य हुन्/ }))
    const dialog = screen.getByRole('dialog', { name: /१/ })
    expect(within(dialog).getByText('आंशिक सही: ४ मध्ये +२.००')).toBeInTheDocument()
    expect(within(dialog).getByText('सही विकल्पहरू').nextElementSibling).toHaveTextContent('क, ख, ग')
  })
})
