import { configure, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sessionStore } from '../../session/session-store'
import { answerFetch, signInAs } from '../../test/page-test-utils'
import { renderWithProviders } from '../../test/render'
import type { QuizListItem } from '@quiz/contracts'
import { Component as DashboardPage } from './dashboard-page'

// The machine running the suite may be busy: give answers longer than the default 1 s to arrive.
configure({ asyncUtilTimeout: 4000 })

function quiz(overrides: Partial<QuizListItem>): QuizListItem {
  return {
    id: 1,
    title: { en: 'General Knowledge', ne: 'सामान्य ज्ञान' },
    duration_minutes: 30,
    difficulty: 'easy',
    is_paid_tier: false,
    allowed_attempts: 3,
    remaining_attempts: 2,
    has_attempt_in_progress: false,
    can_start: true,
    start_time: '2026-11-01T00:00:00.000Z',
    end_time: null,
    question_count: 10,
    sections: [],
    live: null,
    registered: false,
    ...overrides,
  }
}

let answer: { status: number; body: unknown }
let results: { status: number; body: unknown }
beforeEach(() => {
  signInAs({ username: 'sita', is_admin: false })
  results = { status: 200, body: [] }
  answerFetch((key) => (key === 'GET /api/results/' ? results : answer))
})
afterEach(() => vi.unstubAllGlobals())

describe('dashboard', () => {
  it('lists quizzes with duration, difficulty, attempts and a Start Quiz link', async () => {
    answer = { status: 200, body: [quiz({})] }
    renderWithProviders(<DashboardPage />)
    expect(await screen.findByRole('heading', { name: 'General Knowledge' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Available Quizzes')
    expect(screen.getByText('30 minutes')).toBeInTheDocument()
    expect(screen.getByText('Easy')).toBeInTheDocument()
    expect(screen.getByText('2 of 3')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Start Quiz' })).toHaveAttribute('href', '/quiz/1/instructions')
    expect(screen.queryByText('Paid')).not.toBeInTheDocument()
  })

  it('shows Nepali titles in Nepali, and English when Nepali is empty', async () => {
    answer = { status: 200, body: [quiz({}), quiz({ id: 2, title: { en: 'Physics', ne: '' } })] }
    renderWithProviders(<DashboardPage />, { language: 'ne' })
    expect(await screen.findByRole('heading', { name: 'सामान्य ज्ञान' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Physics' })).toHaveAttribute('lang', 'en')
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('उपलब्ध क्विजहरू')
  })

  it('disables Start for a paid quiz without paid access', async () => {
    answer = { status: 200, body: [quiz({ is_paid_tier: true, can_start: false, remaining_attempts: 3 })] }
    renderWithProviders(<DashboardPage />)
    const start = await screen.findByRole('button', { name: 'Start Quiz' })
    expect(start).toBeDisabled()
    expect(start).toHaveAccessibleDescription('This quiz is for paid members.')
    expect(screen.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/plans')
    expect(screen.getByText('Paid')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Start Quiz' })).not.toBeInTheDocument()
  })

  it('offers Resume for an attempt in progress', async () => {
    answer = { status: 200, body: [quiz({ has_attempt_in_progress: true, remaining_attempts: 0, can_start: true })] }
    renderWithProviders(<DashboardPage />)
    expect(await screen.findByRole('link', { name: 'Resume Quiz' })).toBeInTheDocument()
  })

  it('says so when there are no quizzes', async () => {
    answer = { status: 200, body: [] }
    renderWithProviders(<DashboardPage />)
    expect(
      await screen.findByText('No quizzes are available at this moment. Please check back later.'),
    ).toBeInTheDocument()
  })

  it('shows the load failure of SPEC.md', async () => {
    answer = { status: 500, body: { detail: 'Internal error.', code: 'server_error' } }
    renderWithProviders(<DashboardPage />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load quizzes. Please try logging in again.')
  })

  it('says the token is missing without calling the server', () => {
    sessionStore.clear()
    answer = { status: 200, body: [] }
    renderWithProviders(<DashboardPage />)
    expect(screen.getByRole('alert')).toHaveTextContent('Authentication token not found.')
    expect(fetch).not.toHaveBeenCalled()
  })

  describe('paper results', () => {
    const attempt = (id: number, daysAgo: number, mode: 'online' | 'paper') => ({
      id,
      attempt_number: id,
      score: 41.5,
      completed_timestamp: new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000).toISOString(),
      ranked: true,
      mode,
    })

    it('lists paper attempts of the last 30 days, marked "On paper", with their reports', async () => {
      answer = { status: 200, body: [quiz({})] }
      results = {
        status: 200,
        body: [
          {
            id: 1,
            title: { en: 'Loksewa Mock 4', ne: 'लोकसेवा नमुना ४' },
            attempts: [attempt(7, 2, 'paper'), attempt(8, 1, 'online'), attempt(9, 45, 'paper')],
          },
        ],
      }
      renderWithProviders(<DashboardPage />)
      const section = await screen.findByRole('region', { name: 'Your paper results' })
      expect(section).toHaveTextContent('On paper')
      expect(section).toHaveTextContent('Loksewa Mock 4')
      expect(section).toHaveTextContent('Score 41.50')
      expect(screen.getAllByRole('link', { name: 'View Report' }).map((link) => link.getAttribute('href'))).toEqual([
        '/results/7',
      ])
    })

    it('is not there without paper attempts', async () => {
      answer = { status: 200, body: [quiz({})] }
      results = { status: 200, body: [{ id: 1, title: { en: 'GK', ne: '' }, attempts: [attempt(3, 1, 'online')] }] }
      renderWithProviders(<DashboardPage />)
      await screen.findByRole('heading', { name: 'General Knowledge' })
      expect(screen.queryByRole('region', { name: 'Your paper results' })).not.toBeInTheDocument()
    })

    it('says "कागजमा" in Nepali', async () => {
      answer = { status: 200, body: [quiz({})] }
      results = {
        status: 200,
        body: [{ id: 1, title: { en: 'Mock', ne: 'नमुना' }, attempts: [attempt(7, 2, 'paper')] }],
      }
      renderWithProviders(<DashboardPage />, { language: 'ne' })
      const section = await screen.findByRole('region', { name: 'तपाईंका कागजी परीक्षाका नतिजा' })
      expect(section).toHaveTextContent('कागजमा')
      expect(section).toHaveTextContent('नमुना')
    })
  })
})
