import { screen, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, polyfillDialog, renderRoutes, stackedLabels } from '../../test/page-test-utils'
import { scorePercent } from '../progress/progress-charts'
import { Component as ReportPage } from './report-page'

// A Loksewa-style paper: 2 marks −0.4 in section 1, 1 mark −0.25 in section 2 (API.md "Papers").
const question = (id: number) => ({
  id,
  text: { en: `Question ${id}?`, ne: '' },
  hint: null,
  topic: '',
  image: null,
  options: [
    { id: id * 10 + 1, text: { en: 'Right', ne: '' }, is_correct: true, image: null },
    { id: id * 10 + 2, text: { en: 'Wrong', ne: '' }, is_correct: false, image: null },
  ],
})

const card = (extra: object) => ({
  id: 30,
  attempt_number: 1,
  quiz: { id: 3, title: { en: 'Nayab Subba mock', ne: '' } },
  score: 2.35,
  correct: 2,
  incorrect: 3,
  unanswered: 0,
  completed_timestamp: '2026-11-20T08:00:00.000Z',
  questions: [1, 2, 3, 4, 5].map(question),
  answers: [
    { question: 1, selected_option: 11, marked: false, time_spent_seconds: 10 },
    { question: 2, selected_option: 22, marked: false, time_spent_seconds: 10 },
    { question: 3, selected_option: 31, marked: false, time_spent_seconds: 10 },
    { question: 4, selected_option: 42, marked: false, time_spent_seconds: 10 },
    { question: 5, selected_option: 52, marked: false, time_spent_seconds: 10 },
  ],
  analysis: {
    topics: [],
    negative_marks: 0.9,
    participants: 1,
    rank: 1,
    percentile: 100,
    average_score: 2.35,
    highest_score: 2.35,
  },
  ...extra,
})

const sections = [
  { title: { en: 'Constitution', ne: 'संविधान' }, score: 1.6, max_score: 4, correct: 1, incorrect: 1, unanswered: 0 },
  { title: { en: '', ne: '' }, score: 0.75, max_score: 3, correct: 1, incorrect: 2, unanswered: 0 },
]

const render = (body: object, language: 'en' | 'ne' = 'en') => {
  fakeNetwork({ 'GET /api/results/30/': () => ({ body }) })
  return renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/30', language })
}

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

describe('report card of a sectioned paper', () => {
  it('shows the score of the maximum and a table of sections', async () => {
    render(card({ max_score: 7, sections }))
    expect(await screen.findByText('2.35 of 7')).toBeInTheDocument()
    const rows = within(screen.getByRole('region', { name: 'Sections' })).getAllByRole('row')
    expect(rows.map((row) => row.textContent)).toEqual([
      'SectionScoreRightWrongUnanswered',
      'Constitution1.60 of 4110',
      'Section 20.75 of 3120',
    ])
  })

  it('names each cell by its column, in Nepali too, for the rows stacked on a phone', async () => {
    render(card({ max_score: 7, sections }), 'ne')
    const region = await screen.findByRole('region', { name: 'खण्डहरू' })
    expect(stackedLabels(within(region).getByRole('table'))[0]).toEqual(['अङ्क', 'सही', 'गलत', 'उत्तर नदिएका'])
  })

  it('keeps the report as before without marks data, and shows no table for one section', async () => {
    const first = render(card({}))
    expect(await screen.findByText('2.35', { selector: '.report-summary__value' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Sections' })).not.toBeInTheDocument()
    first.unmount()
    vi.unstubAllGlobals()
    render(card({ max_score: 7, sections: sections.slice(0, 1) }))
    expect(await screen.findByText('2.35 of 7')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Sections' })).not.toBeInTheDocument()
  })

  it('reads in Nepali with Devanagari digits', async () => {
    render(card({ max_score: 7, sections }), 'ne')
    expect(await screen.findByText('७ मध्ये २.३५')).toBeInTheDocument()
    const rows = within(screen.getByRole('region', { name: 'खण्डहरू' })).getAllByRole('row')
    expect(rows[1]).toHaveTextContent('संविधान४ मध्ये १.६०११०')
    expect(rows[2]).toHaveTextContent('खण्ड २')
  })
})

describe('progress as a share of the maximum', () => {
  it('uses max_score where the entry has it, else the questions', () => {
    expect(scorePercent({ score: 2.35, total_questions: 5, max_score: 7 })).toBeCloseTo(33.571, 3)
    expect(scorePercent({ score: 2.35, total_questions: 5 })).toBeCloseTo(47, 5)
    expect(scorePercent({ score: 1, total_questions: 0, max_score: 0 })).toBe(0)
  })
})
