import type { DailyToday, Leaderboard } from '@quiz/contracts'
import { screen, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, polyfillDialog, renderRoutes } from '../../test/page-test-utils'
import type { ReportCard } from './results.api'
import { Component as ReportPage } from './report-page'

const question = (id: number) => ({
  id,
  text: { en: `Question text ${id}?`, ne: '', html: null },
  hint: null,
  topic: '',
  image: null,
  options: [
    { id: id * 10 + 1, text: { en: 'Yes', ne: 'हो', html: null }, is_correct: true, image: null },
    { id: id * 10 + 2, text: { en: 'No', ne: 'होइन', html: null }, is_correct: false, image: null },
  ],
})

const card: ReportCard = {
  id: 90,
  attempt_number: 1,
  quiz: { id: 41, title: { en: 'Daily set, 2026-11-28', ne: 'दैनिक सेट, २०८३-०८-१२' }, live: false },
  ranked: true,
  mode: 'online',
  score: 1,
  marking: 'none',
  written: null,
  correct: 1,
  incorrect: 0,
  unanswered: 1,
  completed_timestamp: '2026-11-28T02:00:00.000Z',
  challenge_closes_at: '2026-12-05T02:00:00.000Z',
  key_withheld: null,
  key_withheld_until: null,
  questions: [question(1), question(2)],
  answers: [
    { question: 1, selected_option: 11, marked: false, time_spent_seconds: 75, flag: null, regrade: null },
    { question: 2, selected_option: null, marked: false, time_spent_seconds: 20, flag: null, regrade: null },
  ],
  analysis: {
    topics: [],
    negative_marks: 0,
    participants: 3,
    rank: 1,
    percentile: 100,
    average_score: 0.5,
    highest_score: 1,
  },
  max_score: 2,
  time_vs_top: [
    { question_id: 1, seconds: 75, top_seconds: 40 },
    { question_id: 2, seconds: 20, top_seconds: 32.5 },
  ],
  sections: [],
}

const today: DailyToday = {
  date: { ad: '2026-11-28', bs: '2083-08-12' },
  quiz_id: 41,
  published: true,
  question_count: 2,
  duration_minutes: 5,
  attempted: { attempt_id: 90, score: 1, max_score: 2 },
  streak: { current: 1, best: 4, freezes_left: 1, today_done: true },
}

const board: Leaderboard = {
  status: 'running',
  participants: 3,
  top: [
    { rank: 1, name: 'Sita Rai', score: 1 },
    { rank: 2, name: 'Learner', score: 0.8 },
  ],
  me: { rank: 1, percentile: 100, score: 1, national_rank: null },
} as Leaderboard

function renderReport(
  {
    report = card,
    daily = { body: today },
    leaderboard = { body: board },
  }: {
    report?: ReportCard
    daily?: { status?: number; body?: unknown }
    leaderboard?: { status?: number; body?: unknown }
  } = {},
  language: 'en' | 'ne' = 'en',
) {
  const network = fakeNetwork({
    'GET /api/results/90/': () => ({ body: report }),
    'GET /api/daily/': () => daily,
    'GET /api/daily/2026-11-28/leaderboard/': () => leaderboard,
  })
  renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/90', language })
  return network
}

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

describe('the report of a daily set', () => {
  it("is followed by the day's leaderboard and the updated streak", async () => {
    renderReport()
    const after = await screen.findByRole('region', { name: "Today's leaderboard" })
    const table = await within(after).findByRole('table', { name: 'Top learners today' })
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['RankNameScore', '1Sita Rai1.00', '2Learner0.80'])
    expect(after).toHaveTextContent('Your rank1 of 3')
    expect(after).toHaveTextContent('Streak 1 day')
    expect(after).toHaveTextContent('Best streak4 days')
    expect(after).toHaveTextContent('Freezes left1')
  })

  it('says so when the leaderboard fails, and still shows the streak', async () => {
    renderReport({ leaderboard: { status: 500, body: { detail: 'Internal error.', code: 'server_error' } } })
    const after = await screen.findByRole('region', { name: "Today's leaderboard" })
    expect(await within(after).findByRole('alert')).toHaveTextContent('The leaderboard could not be loaded.')
    expect(after).toHaveTextContent('Streak 1 day')
  })

  it('is not there for a report of another quiz, nor when the daily set fails', async () => {
    renderReport({ daily: { body: { ...today, quiz_id: 7 } } })
    await screen.findByRole('heading', { name: 'Your time against the top 10 %' })
    expect(screen.queryByRole('region', { name: "Today's leaderboard" })).not.toBeInTheDocument()
  })

  it('speaks Nepali with Devanagari digits', async () => {
    renderReport({}, 'ne')
    const after = await screen.findByRole('region', { name: 'आजको लिडरबोर्ड' })
    await within(after).findByRole('table')
    expect(after).toHaveTextContent('३ मध्ये १')
    expect(after).toHaveTextContent('१ दिन')
  })
})

describe('your time against the top 10 %', () => {
  it('shows per question your seconds beside the top group median, as text', async () => {
    renderReport({ daily: { status: 500, body: { detail: 'x', code: 'server_error' } } })
    const section = await screen.findByRole('region', { name: 'Your time against the top 10 %' })
    const rows = within(section).getAllByRole('listitem')
    expect(rows.map((row) => row.textContent)).toEqual([
      'Question 1You: 1 min 15 sTop 10 %: 40 s',
      'Question 2You: 20 sTop 10 %: 33 s',
    ])
  })

  it('is hidden while the top group is too small (null)', async () => {
    renderReport({
      report: {
        ...card,
        time_vs_top: card.time_vs_top.map((row) => ({ ...row, top_seconds: null })),
      },
    })
    await screen.findByRole('region', { name: "Today's leaderboard" })
    expect(screen.queryByRole('region', { name: 'Your time against the top 10 %' })).not.toBeInTheDocument()
  })

  it('speaks Nepali', async () => {
    renderReport({}, 'ne')
    const section = await screen.findByRole('region', { name: 'शीर्ष १० % सँग तपाईंको समय' })
    expect(within(section).getAllByRole('listitem')[0]).toHaveTextContent(
      'प्रश्न १तपाईं: १ मिनेट १५ सेकेन्डशीर्ष १० %: ४० सेकेन्ड',
    )
  })
})
