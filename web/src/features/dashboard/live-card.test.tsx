import type { QuizListItem } from '@quiz/contracts'
import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, renderRoutes, signInAs, type FakeResponse } from '../../test/page-test-utils'
import { Component as DashboardPage } from './dashboard-page'

// A live mock at 10:00 in Nepal (04:15 UTC) on 22 November 2026 (6 Mangsir 2083), joinable for 15 minutes, 2 hours
// long: joining closes at 10:15, everyone finishes at 12:00.
const live = {
  starts_at: '2026-11-22T04:15:00.000Z',
  join_minutes: 15,
  join_ends_at: '2026-11-22T04:30:00.000Z',
  ends_at: '2026-11-22T06:15:00.000Z',
  status: 'upcoming' as const,
}

function quiz(overrides: Partial<QuizListItem> = {}): QuizListItem {
  return {
    id: 1,
    title: { en: 'Loksewa Live Mock', ne: 'लोकसेवा लाइभ मक' },
    duration_minutes: 120,
    difficulty: 'medium',
    is_paid_tier: false,
    allowed_attempts: 3,
    remaining_attempts: 3,
    has_attempt_in_progress: false,
    can_start: false,
    start_time: '2026-11-01T00:00:00.000Z',
    end_time: null,
    question_count: 100,
    sections: [],
    live,
    registered: false,
    ...overrides,
  }
}
const ordinary = quiz({ id: 2, title: { en: 'General Knowledge', ne: '' }, live: null, can_start: true })

function renderDashboard(
  list: () => QuizListItem[],
  { language = 'en' as 'en' | 'ne', extra = {} as Record<string, () => FakeResponse> } = {},
) {
  const network = fakeNetwork({ 'GET /api/quizzes/': () => ({ body: list() }), ...extra })
  renderRoutes([page(DashboardPage, '/')], { path: '/', language })
  return network
}

const card = (title: string) => screen.getByRole('heading', { name: title }).closest('li')!
const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms))
const user = () => userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })

// The live part of a card is loaded when a live mock is listed (quiz-card.tsx). Loaded once here on the real clock:
// under the fake one React's retry of the loaded card would wait on timers no test moves.
beforeAll(async () => {
  signInAs({ username: 'sita', is_admin: false })
  renderDashboard(() => [quiz()])
  await waitFor(() => expect(document.querySelector('.live-card')).not.toBeNull())
  cleanup()
  vi.unstubAllGlobals()
})

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
  // Testing Library's waits advance fake timers when they find this global.
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) })
  signInAs({ username: 'sita', is_admin: false })
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  Reflect.deleteProperty(navigator, 'serviceWorker')
})

describe('a live mock on the dashboard', () => {
  it('before its start: listed first, its start in Nepal time, a ticking countdown, Register, Start off', async () => {
    vi.setSystemTime('2026-11-22T02:00:00.000Z')
    renderDashboard(() => [ordinary, quiz()])
    await screen.findByRole('heading', { name: 'Loksewa Live Mock' })

    const titles = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)
    expect(titles).toEqual(['Loksewa Live Mock', 'General Knowledge'])
    const mock = within(card('Loksewa Live Mock'))
    expect(mock.getByText('Live mock')).toBeInTheDocument()
    expect(mock.getByText('22 Nov 2026, 10:00 NPT')).toHaveAttribute('datetime', live.starts_at)
    expect(mock.getByRole('timer')).toHaveTextContent('Starts in 02:15:00')
    tick(1000)
    expect(mock.getByRole('timer')).toHaveTextContent('Starts in 02:14:59')

    const start = mock.getByRole('button', { name: 'Start Quiz' })
    expect(start).toBeDisabled()
    expect(start).toHaveAccessibleDescription('Start opens at 10:00 NPT.')
    expect(mock.getByRole('button', { name: 'Register' })).toHaveAttribute('aria-pressed', 'false')
  })

  it('counts days when the start is more than a day away', async () => {
    vi.setSystemTime('2026-11-20T04:14:55.000Z')
    renderDashboard(() => [quiz()])
    expect(await screen.findByRole('timer')).toHaveTextContent('Starts in 2 d 00:00:05')
  })

  it('registers and unregisters; only registering asks for push and subscribes this browser', async () => {
    vi.setSystemTime('2026-11-22T02:00:00.000Z')
    const requestPermission = vi.fn(async () => 'granted' as NotificationPermission)
    vi.stubGlobal('Notification', { permission: 'default', requestPermission })
    vi.stubGlobal('PushManager', function PushManager() {})
    const subscription = {
      endpoint: 'https://push.example.net/send/abc',
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
    }
    const pushManager = {
      getSubscription: vi.fn(async () => null),
      subscribe: vi.fn(async () => ({ toJSON: () => subscription })),
    }
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => ({ pushManager }) },
    })
    let registered = false
    const network = renderDashboard(() => [quiz({ registered })], {
      extra: {
        'POST /api/quizzes/1/register/': () => ((registered = true), { status: 201 }),
        'DELETE /api/quizzes/1/register/': () => ((registered = false), { status: 204 }),
        'GET /api/push/key/': () => ({ body: { public_key: 'BAEC' } }),
        'POST /api/push/subscriptions/': () => ({ status: 201 }),
      },
    })
    const register = await screen.findByRole('button', { name: 'Register' })
    expect(requestPermission).not.toHaveBeenCalled()

    await user().click(register)
    const done = await screen.findByRole('button', { name: 'Registered' })
    expect(done).toHaveAttribute('aria-pressed', 'true')
    expect(requestPermission).toHaveBeenCalledTimes(1)
    await vi.waitFor(() => expect(network.callsTo('POST', '/api/push/subscriptions/')).toHaveLength(1))
    expect(network.callsTo('POST', '/api/push/subscriptions/')[0]!.body).toEqual(subscription)
    expect(pushManager.subscribe).toHaveBeenCalledWith({
      userVisibleOnly: true,
      applicationServerKey: new Uint8Array([4, 1, 2]),
    })

    await user().click(done)
    expect(await screen.findByRole('button', { name: 'Register' })).toHaveAttribute('aria-pressed', 'false')
    expect(network.callsTo('DELETE', '/api/quizzes/1/register/')).toHaveLength(1)
    expect(requestPermission).toHaveBeenCalledTimes(1)
  })

  it('says so when registering is refused after the join window', async () => {
    vi.setSystemTime('2026-11-22T04:29:00.000Z')
    renderDashboard(() => [quiz({ can_start: true, live: { ...live, status: 'running' } })], {
      extra: {
        'POST /api/quizzes/1/register/': () => ({
          status: 409,
          body: { detail: 'The join window of this live mock has closed.', code: 'conflict' },
        }),
      },
    })
    await user().click(await screen.findByRole('button', { name: 'Register' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('The join window of this live mock has closed.')
  })

  it('lists mocks open to join, then upcoming ones, then running ones closed to joining, then the rest', async () => {
    vi.setSystemTime('2026-11-22T04:20:00.000Z')
    const at = (id: number, title: string, startsAt: string, status: 'upcoming' | 'running' | 'final') => {
      const start = Date.parse(startsAt)
      return quiz({
        id,
        title: { en: title, ne: '' },
        live: {
          ...live,
          status,
          starts_at: startsAt,
          join_ends_at: new Date(start + 15 * 60_000).toISOString(),
          ends_at: new Date(start + 120 * 60_000).toISOString(),
        },
      })
    }
    renderDashboard(() => [
      ordinary,
      at(3, 'Ended', '2026-11-20T04:15:00.000Z', 'final'),
      at(4, 'Tomorrow', '2026-11-23T04:15:00.000Z', 'upcoming'),
      at(5, 'Joining closed', '2026-11-22T03:00:00.000Z', 'running'),
      at(6, 'Joining now', '2026-11-22T04:15:00.000Z', 'running'),
    ])
    await screen.findByRole('heading', { name: 'Joining now' })
    const titles = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)
    expect(titles).toEqual(['Joining now', 'Tomorrow', 'Joining closed', 'General Knowledge', 'Ended'])
  })

  it('in the join window: Start leads to the instructions, saying until when one may join', async () => {
    vi.setSystemTime('2026-11-22T04:20:00.000Z')
    renderDashboard(() => [quiz({ can_start: true, live: { ...live, status: 'running' } })])
    const start = await screen.findByRole('link', { name: 'Start Quiz' })
    expect(start).toHaveAttribute('href', '/quiz/1/instructions')
    expect(start).toHaveAccessibleDescription(
      'Join by 10:15 NPT. A late start leaves less time: everyone finishes at 12:00 NPT.',
    )
    expect(screen.getByRole('timer')).toHaveTextContent('Joining closes in 00:10:00')
  })

  it('opens Start when the countdown reaches the start, reading the list again', async () => {
    vi.setSystemTime('2026-11-22T04:14:58.000Z')
    const network = renderDashboard(() => [
      quiz({ can_start: Date.now() >= Date.parse(live.starts_at), registered: true }),
    ])
    expect(await screen.findByRole('button', { name: 'Start Quiz' })).toBeDisabled()
    tick(3000)
    expect(await screen.findByRole('link', { name: 'Start Quiz' })).toBeInTheDocument()
    expect(network.callsTo('GET', '/api/quizzes/')).toHaveLength(2)
  })

  it('after the join window and before the end: Start off, saying it is running and joining closed', async () => {
    vi.setSystemTime('2026-11-22T05:00:00.000Z')
    renderDashboard(() => [quiz({ can_start: false, live: { ...live, status: 'running' } })])
    const start = await screen.findByRole('button', { name: 'Start Quiz' })
    expect(start).toBeDisabled()
    expect(start).toHaveAccessibleDescription(
      'Running now: joining closed at 10:15 NPT. Practice opens after it ends at 12:00 NPT.',
    )
    expect(screen.queryByRole('button', { name: /Register/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Leaderboard' })).not.toBeInTheDocument()
  })

  it('after the end: practice (unranked) while attempts remain, and the leaderboard', async () => {
    vi.setSystemTime('2026-11-22T06:30:00.000Z')
    renderDashboard(() => [
      ordinary,
      quiz({ can_start: true, remaining_attempts: 2, live: { ...live, status: 'provisional' } }),
    ])
    expect(await screen.findByRole('link', { name: 'Practice (unranked)' })).toHaveAttribute(
      'href',
      '/quiz/1/instructions',
    )
    expect(screen.getByRole('link', { name: 'Leaderboard' })).toHaveAttribute('href', '/quiz/1/leaderboard')
    expect(screen.queryByRole('timer')).not.toBeInTheDocument()
    // An ended mock keeps the server's place in the list.
    const titles = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)
    expect(titles).toEqual(['General Knowledge', 'Loksewa Live Mock'])
  })

  it('after the end while a learner with extra time sits: Start off, saying practice opens once all have finished', async () => {
    vi.setSystemTime('2026-11-22T06:30:00.000Z')
    renderDashboard(() => [quiz({ can_start: false, remaining_attempts: 2, live: { ...live, status: 'provisional' } })])
    const start = await screen.findByRole('button', { name: 'Start Quiz' })
    expect(start).toBeDisabled()
    expect(start).toHaveAccessibleDescription(
      'This live mock has ended. Practice opens once everyone still sitting it has finished.',
    )
    expect(screen.getByRole('link', { name: 'Leaderboard' })).toBeInTheDocument()
  })

  it('after the end without attempts left: only the leaderboard', async () => {
    vi.setSystemTime('2026-11-22T06:30:00.000Z')
    renderDashboard(() => [quiz({ remaining_attempts: 0, live: { ...live, status: 'final' } })])
    expect(await screen.findByRole('link', { name: 'Leaderboard' })).toBeInTheDocument()
    expect(screen.getByText('This live mock has ended.')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Practice (unranked)' })).not.toBeInTheDocument()
  })

  it('in Nepali: the Bikram Sambat date, Nepal time and the countdown in Devanagari digits', async () => {
    vi.setSystemTime('2026-11-22T02:00:00.000Z')
    renderDashboard(() => [quiz()], { language: 'ne' })
    const title = await screen.findByRole('heading', { name: 'लोकसेवा लाइभ मक' })
    const mock = within(title.closest('li')!)
    expect(mock.getByText('२०८३ मंसिर ६, १०:००')).toBeInTheDocument()
    expect(mock.getByRole('timer')).toHaveTextContent('०२:१५:०० पछि सुरु हुन्छ')
    expect(mock.getByRole('button', { name: 'दर्ता गर्नुहोस्' })).toBeInTheDocument()
    vi.setSystemTime('2026-11-22T04:19:59.000Z')
    tick(1000)
    expect(await mock.findByRole('timer')).toHaveTextContent('सहभागी हुने समय सकिन ००:१०:०० बाँकी')
    expect(mock.getByRole('button', { name: 'क्विज सुरु गर्नुहोस्' })).toHaveAccessibleDescription('१०:०० मा सुरु गर्न मिल्छ।')
  })
})
