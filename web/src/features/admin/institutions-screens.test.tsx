import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import i18n, { initI18n } from '../../i18n/i18n'
import { answerFetch, signInAs, type SentRequest } from '../../test/page-test-utils'
import { renderWithProviders } from '../../test/render'
import { Component as AttemptsPage } from './reports/quiz-attempts-page'
import { Component as LearnersPage } from './people/learners-page'
import { Component as StatisticsPage } from './reports/quiz-statistics-page'
import { binScores } from './reports/score-histogram'

// These screens render long tables in two languages; on a busy 2-core machine a test can pass 5 s.
vi.setConfig({ testTimeout: 20_000 })

configure({ asyncUtilTimeout: 4000 })

let handler: (key: string, body: unknown) => { status: number; body: unknown }
const sent: SentRequest[] = []
beforeAll(async () => {
  // jsdom has no showModal(): open the dialog the way a browser would, so its contents are in the a11y tree.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '')
  }
  if (!i18n.isInitialized) initI18n('en')
})
beforeEach(() => {
  signInAs({ username: 'boss', is_admin: true })
  sent.length = 0
  answerFetch((key, body) => handler(key, body), sent)
})
afterEach(() => vi.unstubAllGlobals())

const quiz = {
  id: 7,
  title: { en: 'Science', ne: 'विज्ञान' },
  questions: [],
}

describe('binScores', () => {
  it('bins whole marks from the lowest score (or 0) to full marks, full marks in the top bin', () => {
    expect(binScores([-0.6, 0.6, 1.8, 3], 3)).toEqual([
      { from: -1, to: 0, count: 1 },
      { from: 0, to: 1, count: 1 },
      { from: 1, to: 2, count: 1 },
      { from: 2, to: 3, count: 1 },
    ])
    const hundred = binScores([0, 9.99, 10, 100, 55.2], 100)
    expect(hundred).toHaveLength(10)
    expect(hundred.map((bin) => bin.count)).toEqual([2, 1, 0, 0, 0, 1, 0, 0, 0, 1])
    expect(binScores([], 1)).toEqual([{ from: 0, to: 1, count: 0 }])
  })
})

describe('statistics tab', () => {
  const statistics = {
    attempts: 2,
    mean: 1.5,
    median: 1.5,
    standard_deviation: 0.71,
    highest: 2,
    lowest: 1,
    cronbach_alpha: null,
    standard_error: null,
    scores: [1, 2],
    question_count: 2,
    questions: [
      {
        id: 11,
        number: 1,
        text: { en: 'Which gas do plants take in?', ne: 'बिरुवाले कुन ग्यास लिन्छ?' },
        topic: null,
        facility: 1,
        discrimination: null,
        unanswered: 0,
        options: [
          { id: 1, text: { en: 'CO2', ne: '' }, is_correct: true, count: 2 },
          { id: 2, text: { en: 'O2', ne: '' }, is_correct: false, count: 0 },
        ],
        other: 1,
        flags: ['too_easy'],
      },
    ],
    written: [
      {
        id: 12,
        number: 2,
        text: { en: 'Explain photosynthesis.', ne: 'प्रकाश संश्लेषण व्याख्या गर्नुहोस्।', html: null },
        topic: null,
        max_marks: 10,
        marked: 2,
        mean: 6.5,
        share: 0.65,
      },
    ],
  }

  it('shows the figures in Nepali digits, "not available" for null, each explained, with flags and earlier answers', async () => {
    handler = (key) =>
      key.startsWith('GET /api/admin/quizzes/7/statistics/')
        ? { status: 200, body: statistics }
        : { status: 200, body: quiz }
    renderWithProviders(
      <Routes>
        <Route path="/admin/quiz/:quizId/statistics" element={<StatisticsPage />} />
      </Routes>,
      { language: 'ne', route: '/admin/quiz/7/statistics' },
    )
    expect(await screen.findByRole('heading', { name: 'तथ्याङ्क: विज्ञान', level: 1 })).toBeInTheDocument()
    const [summary] = await screen.findAllByRole('region', { name: 'सारांश' })
    const mean = within(summary!).getByRole('row', { name: /औसत अङ्क/ })
    expect(within(mean).getByText('१.५०')).toBeInTheDocument()
    expect(within(screen.getByRole('row', { name: /क्रोनबाकको अल्फा/ })).getByText('उपलब्ध छैन')).toBeInTheDocument()
    expect(screen.getByText(/प्रश्नहरूले एउटै क्षमता/)).toBeInTheDocument()
    expect(screen.getByRole('img', { name: /हिस्टोग्राम/ })).toBeInTheDocument()
    expect(screen.getByText('बिरुवाले कुन ग्यास लिन्छ?')).toBeInTheDocument()
    expect(screen.getByText('पुरानो संस्करण: १')).toBeInTheDocument()
    expect(screen.getByText('धेरै सजिलो (९०% भन्दा बढी सही)')).toBeInTheDocument()
    // Written questions beside the choice ones: their mean and the share of their marks gained.
    const [written] = screen.getAllByRole('region', { name: 'लिखित प्रश्नहरू' })
    const row = within(written!).getByRole('row', { name: /प्रकाश संश्लेषण/ })
    expect([...row.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual([
      '२',
      'प्रकाश संश्लेषण व्याख्या गर्नुहोस्।',
      '१०',
      '२',
      '६.५०',
      '६५%',
    ])
    expect(sent.map((s) => s.key)).toContain('GET /api/admin/quizzes/7/statistics/?which=first')

    await userEvent.selectOptions(screen.getByLabelText('विश्लेषण'), 'all')
    await waitFor(() => expect(sent.some((s) => s.key.endsWith('statistics/?which=all'))).toBe(true))
  })

  it('says so when no attempt is finished', async () => {
    handler = (key) =>
      key.includes('statistics')
        ? { status: 200, body: { ...statistics, attempts: 0, scores: [], questions: [], written: [] } }
        : { status: 200, body: quiz }
    renderWithProviders(
      <Routes>
        <Route path="/admin/quiz/:quizId/statistics" element={<StatisticsPage />} />
      </Routes>,
      { route: '/admin/quiz/7/statistics' },
    )
    expect(await screen.findByText(/No finished attempts yet: statistics appear/)).toBeInTheDocument()
  })
})

describe('attempts tab', () => {
  it('lists attempts and asks again for first attempts only', async () => {
    handler = (key) =>
      key.includes('/attempts/')
        ? {
            status: 200,
            body: {
              count: 1,
              results: [
                {
                  attempt_id: 3,
                  user: { id: 2, username: 'sita', full_name: 'Sita Rai' },
                  attempt_number: 1,
                  score: -0.4,
                  correct: 0,
                  incorrect: 2,
                  unanswered: 0,
                  started_at: '2026-11-22T07:00:00.000Z',
                  completed_timestamp: '2026-11-22T07:03:05.000Z',
                  duration_seconds: 185,
                  late: false,
                },
              ],
            },
          }
        : { status: 200, body: quiz }
    renderWithProviders(
      <Routes>
        <Route path="/admin/quiz/:quizId/attempts" element={<AttemptsPage />} />
      </Routes>,
      { route: '/admin/quiz/7/attempts' },
    )
    expect(await screen.findByText('Sita Rai')).toBeInTheDocument()
    expect(screen.getByText('-0.40')).toBeInTheDocument()
    expect(screen.getByText('3 min 5 s')).toBeInTheDocument()
    expect(sent.map((s) => s.key)).toContain('GET /api/admin/quizzes/7/attempts/?which=all&page=1&page_size=50')
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'first')
    await waitFor(() =>
      expect(sent.map((s) => s.key)).toContain('GET /api/admin/quizzes/7/attempts/?which=first&page=1&page_size=50'),
    )
  })
})

describe('learners page', () => {
  const ram = {
    id: 5,
    username: 'ram',
    full_name: 'Ram Thapa',
    phone_number: '9812345678',
    is_admin: false,
    has_paid_access: false,
    paid_access_until: null,
    extra_time_percent: 0,
    date_joined: '2026-11-01T00:00:00.000Z',
    finished_attempts: 2,
  }

  it('searches a phone number typed in Devanagari digits by the digits it is stored with', async () => {
    handler = () => ({ status: 200, body: { count: 1, results: [ram] } })
    renderWithProviders(<LearnersPage />)
    await userEvent.type(await screen.findByLabelText('Search by username, name or phone'), '९८१२३')
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() =>
      expect(sent.map((s) => s.key)).toContain('GET /api/admin/users/?search=98123&page=1&page_size=50'),
    )
  })

  it('searches, then grants paid access until a day and extra time', async () => {
    handler = (key, body) =>
      key.startsWith('PATCH')
        ? { status: 200, body: { ...ram, ...(body as object), has_paid_access: true } }
        : { status: 200, body: { count: 1, results: [ram] } }
    renderWithProviders(<LearnersPage />)
    await userEvent.type(await screen.findByLabelText('Search by username, name or phone'), 'Ram T')
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() =>
      expect(sent.map((s) => s.key)).toContain('GET /api/admin/users/?search=Ram%20T&page=1&page_size=50'),
    )
    await userEvent.click(await screen.findByRole('button', { name: 'Change: ram' }))
    const dialog = screen.getByRole('dialog', { name: 'Access and time for ram' })
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Paid access' }))
    const end = within(dialog).getByLabelText('Paid access ends (optional)')
    await userEvent.type(end, '2027-03-31')
    const extra = within(dialog).getByLabelText(/^Extra time/)
    await userEvent.clear(extra)
    await userEvent.type(extra, '301')
    expect(within(dialog).getByText('Extra time must be a whole number from 0 to 300.')).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled()
    await userEvent.clear(extra)
    await userEvent.type(extra, '50')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent.map((s) => s.key)).toContain('PATCH /api/admin/users/5/'))
    const patch = sent.find((s) => s.key === 'PATCH /api/admin/users/5/')!.body as Record<string, unknown>
    expect(patch).toMatchObject({ has_paid_access: true, extra_time_percent: 50 })
    // The end of the chosen day in the browser's time zone.
    const until = new Date(patch.paid_access_until as string)
    expect([until.getFullYear(), until.getMonth(), until.getDate(), until.getHours()]).toEqual([2027, 2, 31, 23])
    expect(await screen.findByText('Saved changes for ram.')).toBeInTheDocument()
  })

  it('revokes without sending a date', async () => {
    const paid = { ...ram, has_paid_access: true, paid_access_until: '2027-01-01T00:00:00.000Z' }
    handler = (key) =>
      key.startsWith('PATCH')
        ? { status: 200, body: { ...paid, has_paid_access: false } }
        : { status: 200, body: { count: 1, results: [paid] } }
    renderWithProviders(<LearnersPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'Change: ram' }))
    const dialog = screen.getByRole('dialog')
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Paid access' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent.map((s) => s.key)).toContain('PATCH /api/admin/users/5/'))
    expect(sent.find((s) => s.key === 'PATCH /api/admin/users/5/')!.body).toEqual({
      has_paid_access: false,
      extra_time_percent: 0,
    })
  })
})
