import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, renderRoutes } from '../../test/page-test-utils'
import { scorePercent, topicAccuracy } from './progress-charts'
import type { Progress } from './progress.api'
import { Component as ProgressPage } from './progress-page'
import { languageFindings } from '../../test/lang-of-parts'

const progress: Progress = {
  attempts: [
    {
      attempt_id: 1,
      quiz: { id: 1, title: { en: 'Algebra', ne: 'बीजगणित' } },
      score: 1.8,
      total_questions: 4,
      max_score: 4,
      correct: 2,
      incorrect: 1,
      unanswered: 1,
      completed_timestamp: '2026-11-20T08:00:00.000Z',
      mode: 'online',
    },
    {
      attempt_id: 2,
      quiz: { id: 1, title: { en: 'Algebra', ne: 'बीजगणित' } },
      score: -0.4,
      total_questions: 4,
      max_score: 4,
      correct: 0,
      incorrect: 2,
      unanswered: 2,
      completed_timestamp: '2026-11-22T08:00:00.000Z',
      mode: 'online',
    },
  ],
  topics: [
    { topic: 'algebra', correct: 3, incorrect: 1, unanswered: 0 },
    { topic: null, correct: 0, incorrect: 2, unanswered: 2 },
  ],
}

const renderProgress = (body: unknown, language: 'en' | 'ne' = 'en') => {
  fakeNetwork({ 'GET /api/results/progress/': () => ({ body }) })
  return renderRoutes([page(ProgressPage, '/progress')], { path: '/progress', language })
}

afterEach(() => vi.unstubAllGlobals())

describe('progress figures', () => {
  it('scores as a percentage of the questions, negative ones included, and accuracy by topic', () => {
    expect(scorePercent(progress.attempts[0]!)).toBe(45)
    expect(scorePercent(progress.attempts[1]!)).toBe(-10)
    expect(scorePercent({ score: 0, total_questions: 0 })).toBe(0)
    expect(topicAccuracy(progress.topics[0]!)).toBe(75)
    expect(topicAccuracy({ topic: 'x', correct: 0, incorrect: 0, unanswered: 0 })).toBe(0)
  })
})

describe('progress page', () => {
  it('draws the trend and the topic bars as SVG, with tables of the same figures', async () => {
    renderProgress(progress)
    expect(await screen.findByRole('heading', { level: 1, name: 'My Progress' })).toBeInTheDocument()
    const trend = screen.getByRole('img', { name: /Line chart of your score/ })
    expect(trend.querySelectorAll('circle')).toHaveLength(2)
    const [trendTable, topicTable] = screen.getAllByRole('table')
    const trendRows = within(trendTable!).getAllByRole('row')
    expect(trendRows[1]).toHaveTextContent('Algebra1.80 of 445%')
    expect(trendRows[2]).toHaveTextContent('-0.40 of 4-10%')
    const topicRows = within(topicTable!).getAllByRole('row')
    expect(topicRows[1]).toHaveTextContent('algebra31075%')
    expect(topicRows[2]).toHaveTextContent('No topic0220%')
    const bars = screen.getByRole('img', { name: /Bar chart/ })
    expect(bars).toHaveTextContent('algebra')
    expect(bars).toHaveTextContent('75%')
  })

  it('invites a learner without attempts to take a quiz', async () => {
    renderProgress({ attempts: [], topics: [] })
    expect(await screen.findByText(/You have not completed any quizzes yet/)).toBeInTheDocument()
    expect(screen.queryByRole('img')).not.toBeInTheDocument()
  })

  it('speaks Nepali with Bikram Sambat dates and Devanagari digits', async () => {
    renderProgress(progress, 'ne')
    expect(await screen.findByRole('heading', { level: 1, name: 'मेरो प्रगति' })).toBeInTheDocument()
    const trend = screen.getByRole('img', { name: /रेखाचित्र/ })
    expect(trend).toHaveTextContent('२०८३ मंसिर ४')
    expect(trend).toHaveTextContent('२०८३ मंसिर ६')
    const [trendTable] = screen.getAllByRole('table')
    expect(within(trendTable!).getAllByRole('row')[1]).toHaveTextContent('२०८३ मंसिर ४, १३:४५बीजगणित४ मध्ये १.८०४५%')
    expect(document.body.textContent).not.toMatch(/[0-9]/)
    // The English topic `algebra` is read with an English voice, in the table and the chart (issue 61).
    expect(screen.getAllByText('algebra').map((topic) => topic.getAttribute('lang'))).toEqual(['en', 'en'])
    expect(languageFindings(document.body, 'ne')).toEqual([])
  })
})
