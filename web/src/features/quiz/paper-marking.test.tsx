import type { QuizListItem } from '@quiz/contracts'
import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, renderRoutes, stackedLabels } from '../../test/page-test-utils'
import { Component as InstructionsPage } from './instructions-page'
import type { SectionSummary } from './paper-marking'

const quiz = (sections: SectionSummary[]): QuizListItem => ({
  id: 5,
  title: { en: 'IOE entrance mock', ne: '' },
  duration_minutes: 120,
  difficulty: 'hard',
  is_paid_tier: false,
  allowed_attempts: 3,
  remaining_attempts: 3,
  has_attempt_in_progress: false,
  can_start: true,
  start_time: '2026-11-01T00:00:00.000Z',
  end_time: null,
  question_count: 100,
  sections,
  live: null,
  registered: false,
})

const render = (sections: SectionSummary[], language: 'en' | 'ne' = 'en') => {
  fakeNetwork({ 'GET /api/quizzes/': () => ({ body: [quiz(sections)] }) })
  return renderRoutes([page(InstructionsPage, '/quiz/:quizId/instructions')], {
    path: '/quiz/5/instructions',
    language,
  })
}

const ioe: SectionSummary[] = [
  {
    title: { en: 'One-mark questions', ne: 'एक अङ्कका प्रश्न' },
    marks_correct: 1,
    marks_wrong: 0.1,
    count: 60,
    time_limit_minutes: 70,
  },
  {
    title: { en: 'Two-mark questions', ne: '' },
    marks_correct: 2,
    marks_wrong: 0.2,
    count: 40,
    time_limit_minutes: 50,
  },
]

afterEach(() => vi.unstubAllGlobals())

describe('instructions of a paper with sections', () => {
  it('lists each section with its questions, marks and time, the maximum and the timed rule', async () => {
    render(ioe)
    expect(await screen.findByRole('heading', { name: 'Sections and marking' })).toBeInTheDocument()
    const rows = within(screen.getByRole('table')).getAllByRole('row')
    expect(rows.map((row) => row.textContent)).toEqual([
      'SectionQuestionsRight answerWrong answerTime',
      'One-mark questions60+1-0.170 minutes',
      'Two-mark questions40+2-0.250 minutes',
    ])
    expect(stackedLabels(screen.getByRole('table'))[0]).toEqual(['Questions', 'Right answer', 'Wrong answer', 'Time'])
    expect(screen.getByText('Maximum score: 140')).toBeInTheDocument()
    expect(screen.getByText(/cannot go back to a closed section/)).toBeInTheDocument()
    expect(screen.queryByText('+1', { selector: 'strong' })).not.toBeInTheDocument()
  })

  it('states one section marking in the usual lines, with its own marks', async () => {
    render([{ title: { en: '', ne: '' }, marks_correct: 2, marks_wrong: 0.4, count: 50, time_limit_minutes: null }])
    expect(await screen.findByRole('heading', { name: 'Marking scheme' })).toBeInTheDocument()
    expect(screen.getByText('+2')).toBeInTheDocument()
    expect(screen.getByText('-0.4')).toBeInTheDocument()
    expect(screen.getByText('Maximum score: 100')).toBeInTheDocument()
    expect(screen.queryByText(/closed section/)).not.toBeInTheDocument()
  })

  it('reads in Nepali with Devanagari digits', async () => {
    render(ioe, 'ne')
    expect(await screen.findByRole('heading', { name: 'खण्ड र अङ्कन' })).toBeInTheDocument()
    const rows = within(screen.getByRole('table')).getAllByRole('row')
    expect(rows[1]).toHaveTextContent('एक अङ्कका प्रश्न६०+१-०.१७० मिनेट')
    expect(rows[2]).toHaveTextContent('Two-mark questions')
    expect(screen.getByText('पूर्णाङ्क: १४०')).toBeInTheDocument()
  })
})
