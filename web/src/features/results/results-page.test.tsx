import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, polyfillDialog, renderRoutes } from '../../test/page-test-utils'
import type { QuizResults } from './results.api'
import { Component as ResultsPage } from './results-page'

const results: QuizResults[] = [
  {
    id: 3,
    title: { en: 'Science Basics', ne: 'विज्ञानका आधारहरू' },
    attempts: [
      {
        id: 31,
        attempt_number: 2,
        score: -0.4,
        completed_timestamp: '2026-11-21T09:30:00.000Z',
        ranked: true,
        mode: 'online',
        marking: 'none',
        written: null,
      },
      {
        id: 30,
        attempt_number: 1,
        score: 2.6,
        completed_timestamp: '2026-11-20T08:00:00.000Z',
        ranked: true,
        mode: 'online',
        marking: 'none',
        written: null,
      },
    ],
  },
  {
    id: 4,
    title: { en: 'History', ne: '' },
    attempts: [
      {
        id: 40,
        attempt_number: 1,
        score: 5,
        completed_timestamp: '2026-11-19T08:00:00.000Z',
        ranked: true,
        mode: 'online',
        marking: 'none',
        written: null,
      },
    ],
  },
]

function renderResults(response: { status?: number; body?: unknown }, language: 'en' | 'ne' = 'en') {
  fakeNetwork({ 'GET /api/results/': () => response })
  return renderRoutes([page(ResultsPage, '/results')], { path: '/results', language })
}

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

describe('results page', () => {
  it('lists the quizzes with their attempt counts', async () => {
    renderResults({ body: results })
    expect(screen.getByRole('heading', { level: 1, name: 'My Results' })).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: /Science Basics/ })).toHaveTextContent('2 attempts')
    expect(screen.getByRole('button', { name: /History/ })).toHaveTextContent('1 attempt')
  })

  it('opens a modal of attempts in order, with scores to 2 decimals, times and report links', async () => {
    const user = userEvent.setup()
    renderResults({ body: results })
    await user.click(await screen.findByRole('button', { name: /Science Basics/ }))
    const dialog = screen.getByRole('dialog', { name: 'Science Basics' })
    const rows = within(dialog).getAllByRole('listitem')
    expect(rows[0]).toHaveTextContent('Attempt 1')
    expect(rows[0]).toHaveTextContent('2.60')
    expect(rows[1]).toHaveTextContent('Attempt 2')
    expect(rows[1]).toHaveTextContent('-0.40')
    expect(within(rows[0]!).getByText(/2026/)).toHaveAttribute('datetime', '2026-11-20T08:00:00.000Z')
    expect(within(rows[0]!).getByRole('link', { name: 'View Report (attempt 1)' })).toHaveAttribute(
      'href',
      '/results/30',
    )
    expect(within(rows[1]!).getByRole('link', { name: 'View Report (attempt 2)' })).toHaveAttribute(
      'href',
      '/results/31',
    )
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it("marks a live mock's practice attempt as unranked", async () => {
    const user = userEvent.setup()
    const live = {
      ...results[0]!,
      attempts: [{ ...results[0]!.attempts[0]!, ranked: false }, results[0]!.attempts[1]!],
    }
    renderResults({ body: [live] })
    await user.click(await screen.findByRole('button', { name: /Science Basics/ }))
    const rows = within(screen.getByRole('dialog')).getAllByRole('listitem')
    expect(rows[0]).not.toHaveTextContent('Practice (unranked)')
    expect(within(rows[1]!).getByText('Practice (unranked)')).toBeInTheDocument()
  })

  it('marks a paper attempt "On paper" with the date it was sat, in both languages', async () => {
    const user = userEvent.setup()
    const paper = {
      ...results[0]!,
      attempts: [results[0]!.attempts[0]!, { ...results[0]!.attempts[1]!, mode: 'paper' as const }],
    }
    renderResults({ body: [paper] })
    await user.click(await screen.findByRole('button', { name: /Science Basics/ }))
    const rows = within(screen.getByRole('dialog')).getAllByRole('listitem')
    expect(rows[0]).toHaveTextContent('On paper')
    expect(rows[0]).toHaveTextContent('Sat on: 20 Nov 2026')
    expect(rows[1]).not.toHaveTextContent('On paper')
    expect(rows[1]).toHaveTextContent('Completed')
  })

  it('says "कागजमा" and the Bikram Sambat date in Nepali', async () => {
    const user = userEvent.setup()
    renderResults({ body: [{ ...results[1]!, attempts: [{ ...results[1]!.attempts[0]!, mode: 'paper' }] }] }, 'ne')
    await user.click(await screen.findByRole('button', { name: /History/ }))
    const row = within(screen.getByRole('dialog')).getByRole('listitem')
    expect(row).toHaveTextContent('कागजमा')
    expect(row).toHaveTextContent('परीक्षा मिति: २०८३ मंसिर ३')
  })

  it('explains an empty list', async () => {
    renderResults({ body: [] })
    expect(await screen.findByText(/You have not completed any quizzes yet/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/')
  })

  it('shows the load error', async () => {
    renderResults({ status: 500, body: { detail: 'x', code: 'server_error' } })
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your results. Please try again later.')
  })

  it('speaks Nepali, falling back to English content', async () => {
    renderResults({ body: results }, 'ne')
    expect(screen.getByRole('heading', { level: 1, name: 'मेरा नतिजाहरू' })).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: /विज्ञानका आधारहरू/ })).toHaveTextContent('२ प्रयास')
    expect(screen.getByRole('button', { name: /History/ })).toBeInTheDocument()
  })

  it('shows a written part awaiting marking until release, then its marks, in English and Nepali', async () => {
    const user = userEvent.setup()
    const written: QuizResults[] = [
      {
        id: 9,
        title: { en: 'Section Officer Paper II', ne: 'शाखा अधिकृत दोस्रो पत्र' },
        attempts: [
          {
            id: 91,
            attempt_number: 1,
            score: 12,
            completed_timestamp: '2026-11-20T08:00:00.000Z',
            ranked: false,
            mode: 'online',
            marking: 'pending',
            written: { marks: 0, max_marks: 20, released: 1, total: 2 },
          },
          {
            id: 92,
            attempt_number: 2,
            score: 27.5,
            completed_timestamp: '2026-11-21T08:00:00.000Z',
            ranked: true,
            mode: 'online',
            marking: 'released',
            written: { marks: 15.5, max_marks: 20, released: 2, total: 2 },
          },
        ],
      },
    ]
    renderResults({ body: written })
    await user.click(await screen.findByRole('button', { name: /Section Officer/ }))
    const rows = within(screen.getByRole('dialog')).getAllByRole('listitem')
    expect(rows[0]).toHaveTextContent('Written part: awaiting marking (1 of 2 questions marked)')
    expect(rows[1]).toHaveTextContent('Written part: 15.50 of 20.00')
    expect(rows[1]).not.toHaveTextContent('awaiting marking')
  })

  it('says so in Nepali', async () => {
    const user = userEvent.setup()
    const pending: QuizResults[] = [
      {
        ...results[1]!,
        attempts: [
          {
            ...results[1]!.attempts[0]!,
            marking: 'pending',
            written: { marks: 0, max_marks: 10, released: 0, total: 1 },
          },
        ],
      },
    ]
    renderResults({ body: pending }, 'ne')
    await user.click(await screen.findByRole('button', { name: /History/ }))
    expect(screen.getByRole('dialog')).toHaveTextContent('लिखित भाग: जाँच्न बाँकी')
  })
})
