import type { DailyToday, QuizListItem } from '@quiz/contracts'
import { configure, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answerFetch, signInAs } from '../../test/page-test-utils'
import { renderWithProviders } from '../../test/render'
import { Component as DashboardPage } from './dashboard-page'

configure({ asyncUtilTimeout: 4000 })

const listed = (id: number, en: string): QuizListItem => ({
  id,
  title: { en, ne: '' },
  duration_minutes: 30,
  difficulty: 'easy',
  is_paid_tier: false,
  allowed_attempts: 1,
  remaining_attempts: 1,
  has_attempt_in_progress: false,
  can_start: true,
  start_time: '2026-11-01T00:00:00.000Z',
  end_time: null,
  question_count: 10,
  sections: [],
  live: null,
  registered: false,
})

// 28 November 2026 is 12 Mangsir 2083.
const today = (overrides: Partial<DailyToday> = {}): DailyToday => ({
  date: { ad: '2026-11-28', bs: '2083-08-12' },
  quiz_id: 41,
  published: true,
  question_count: 10,
  duration_minutes: 12,
  attempted: null,
  streak: { current: 3, best: 7, freezes_left: 2, today_done: false },
  ...overrides,
})

let daily: { status: number; body: unknown }
beforeEach(() => {
  signInAs({ username: 'sita', is_admin: false })
  daily = { status: 200, body: today() }
  answerFetch((key) =>
    key === 'GET /api/daily/'
      ? daily
      : key === 'GET /api/results/'
        ? { status: 200, body: [] }
        : { status: 200, body: [listed(41, 'Daily set, 2026-11-28'), listed(2, 'General Knowledge')] },
  )
})
afterEach(() => vi.unstubAllGlobals())

describe("the dashboard's daily set", () => {
  it('opens with today in Bikram Sambat and AD, questions, minutes, Start and the streak', async () => {
    renderWithProviders(<DashboardPage />)
    const card = await screen.findByRole('region', { name: "Today's set" })
    expect(card).toHaveTextContent('12 Mangsir 2083 BS (28 Nov 2026)')
    expect(card).toHaveTextContent('10 questions · 12 minutes')
    expect(within(card).getByRole('link', { name: 'Start' })).toHaveAttribute('href', '/quiz/41/instructions')
    expect(card).toHaveTextContent('Streak 3 days')
    expect(card).toHaveTextContent('Best streak7 days')
    expect(card).toHaveTextContent('Freezes left2')
    expect(card).toHaveTextContent("Do today's set to keep your streak.")
    // The set is the card; the list below does not repeat it.
    expect(await screen.findByRole('heading', { name: 'General Knowledge' })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Daily set, 2026-11-28' })).not.toBeInTheDocument()
  })

  it('shows the score and "See answers" once done', async () => {
    daily = {
      status: 200,
      body: today({
        attempted: { attempt_id: 90, score: 8.4, max_score: 10 },
        streak: { current: 1, best: 1, freezes_left: 2, today_done: true },
      }),
    }
    renderWithProviders(<DashboardPage />)
    const card = await screen.findByRole('region', { name: "Today's set" })
    expect(card).toHaveTextContent('Your score: 8.40 of 10.00')
    expect(within(card).getByRole('link', { name: 'See answers' })).toHaveAttribute('href', '/results/90')
    expect(within(card).queryByRole('link', { name: 'Start' })).not.toBeInTheDocument()
    expect(card).toHaveTextContent('Streak 1 day')
    expect(card).toHaveTextContent('Done for today.')
  })

  it('speaks Nepali with Devanagari digits and the Bikram Sambat date alone', async () => {
    renderWithProviders(<DashboardPage />, { language: 'ne' })
    const card = await screen.findByRole('region', { name: 'आजको सेट' })
    expect(card).toHaveTextContent('२०८३ मंसिर १२')
    expect(card).not.toHaveTextContent('Nov')
    expect(card).toHaveTextContent('१० प्रश्न · १२ मिनेट')
    expect(within(card).getByRole('link', { name: 'सुरु गर्नुहोस्' })).toBeInTheDocument()
    expect(card).toHaveTextContent('३ दिन')
    expect(card).not.toHaveTextContent(/[0-9]/)
  })

  it('is not there when the institute has no set today', async () => {
    daily = { status: 200, body: today({ quiz_id: null, published: false, question_count: null }) }
    renderWithProviders(<DashboardPage />)
    expect(await screen.findByRole('heading', { name: 'General Knowledge' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: "Today's set" })).not.toBeInTheDocument()
  })

  it('leaves the dashboard as it was when the daily set fails to load', async () => {
    daily = { status: 500, body: { detail: 'Internal error.', code: 'server_error' } }
    renderWithProviders(<DashboardPage />)
    expect(await screen.findByRole('heading', { name: 'General Knowledge' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: "Today's set" })).not.toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})
