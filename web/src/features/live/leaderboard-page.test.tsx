import type { Leaderboard, QuizListItem } from '@quiz/contracts'
import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, renderRoutes, type FakeResponse } from '../../test/page-test-utils'
import { Component as LeaderboardPage } from './leaderboard-page'

const listed: Partial<QuizListItem> = { id: 1, title: { en: 'Loksewa Live Mock', ne: 'लोकसेवा लाइभ मक' } }

function renderBoard(board: FakeResponse, { language = 'en' as 'en' | 'ne', id = 1 } = {}) {
  const network = fakeNetwork({
    [`GET /api/quizzes/${id}/leaderboard/`]: () => board,
    'GET /api/quizzes/': () => ({ body: [listed] }),
  })
  renderRoutes([page(LeaderboardPage, '/quiz/:quizId/leaderboard')], { path: `/quiz/${id}/leaderboard`, language })
  return network
}

const final: Leaderboard = {
  status: 'final',
  participants: 1234,
  top: [
    { rank: 1, name: 'Sita Rai', score: 92.4 },
    { rank: 2, name: 'Learner', score: 88 },
    { rank: 2, name: 'hari99', score: 88 },
  ],
  me: { rank: 17, percentile: 98.7, score: 71.25 },
}

afterEach(() => vi.unstubAllGlobals())

describe('leaderboard page', () => {
  it('final: the status, participants, the top table with scores to 2 decimals, and my rank and percentile', async () => {
    renderBoard({ body: final })
    expect(await screen.findByText('Results are final.')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Leaderboard')
    expect(screen.getByText('Loksewa Live Mock')).toBeInTheDocument()
    const figure = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling
    expect(figure('Participants')).toHaveTextContent('1,234')
    expect(figure('Your rank')).toHaveTextContent('17 of 1,234')
    expect(figure('Percentile')).toHaveTextContent('98.7')
    expect(figure('Your score')).toHaveTextContent('71.25')

    const table = screen.getByRole('table', { name: 'Top 20' })
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => Array.from(row.children, (cell) => [cell.tagName, cell.textContent]))
    expect(rows).toEqual([
      [
        ['TD', '1'],
        ['TH', 'Sita Rai'],
        ['TD', '92.40'],
      ],
      [
        ['TD', '2'],
        ['TH', 'Learner'],
        ['TD', '88.00'],
      ],
      [
        ['TD', '2'],
        ['TH', 'hari99'],
        ['TD', '88.00'],
      ],
    ])
  })

  it('provisional: says the results wait for the answer key; without a ranked attempt, says so', async () => {
    renderBoard({ body: { ...final, status: 'provisional', me: null } })
    expect(await screen.findByText('Results are provisional until the answer key is settled.')).toBeInTheDocument()
    expect(screen.getByText('You have no ranked attempt in this live mock.')).toBeInTheDocument()
    expect(screen.queryByText('Your rank')).not.toBeInTheDocument()
  })

  it('upcoming and running: no ranks yet', async () => {
    renderBoard({ body: { status: 'running', participants: 40, top: [], me: null } })
    expect(await screen.findByText('The live mock is running. Ranks appear when it ends.')).toBeInTheDocument()
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    expect(screen.queryByText('You have no ranked attempt in this live mock.')).not.toBeInTheDocument()
  })

  it('upcoming', async () => {
    renderBoard({ body: { status: 'upcoming', participants: 0, top: [], me: null } })
    expect(await screen.findByText('The live mock has not started yet. Ranks appear when it ends.')).toBeInTheDocument()
  })

  it('a quiz that is not a live mock (404)', async () => {
    renderBoard({ status: 404, body: { detail: 'Not found.', code: 'not_found' } })
    expect(await screen.findByRole('alert')).toHaveTextContent('This quiz has no leaderboard.')
  })

  it('says when the leaderboard cannot be loaded', async () => {
    renderBoard({ status: 500, body: { detail: 'x', code: 'server_error' } })
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load the leaderboard.')
  })

  it('in Nepali: Devanagari digits for ranks, scores, percentile and participants', async () => {
    renderBoard({ body: final }, { language: 'ne' })
    expect(await screen.findByText('नतिजा अन्तिम हो।')).toBeInTheDocument()
    // The page says Nepali already: the title needs no lang of its own (only a fallback to English would).
    expect(screen.getByText('लोकसेवा लाइभ मक')).not.toHaveAttribute('lang')
    const figure = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling
    expect(figure('सहभागी')).toHaveTextContent('१,२३४')
    expect(figure('तपाईंको श्रेणी')).toHaveTextContent('१,२३४ मध्ये १७')
    expect(figure('पर्सेन्टाइल')).toHaveTextContent('९८.७')
    expect(figure('तपाईंको अङ्क')).toHaveTextContent('७१.२५')
    const first = within(screen.getByRole('table', { name: 'शीर्ष २०' })).getAllByRole('row')[1]!
    expect(first).toHaveTextContent('१Sita Rai९२.४०')
  })
})
