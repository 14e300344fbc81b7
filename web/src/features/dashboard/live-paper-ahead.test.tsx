import type { QuizListItem } from '@quiz/contracts'
import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { forgetLivePaper, hasLivePaper } from '../../api/live-paper'
import { sessionStore } from '../../session/session-store'
import { fakeNetwork, page, renderRoutes } from '../../test/page-test-utils'
import { Component as DashboardPage } from './dashboard-page'

const USER_ID = 5
const live = {
  starts_at: '2026-11-22T04:15:00.000Z',
  join_minutes: 15,
  join_ends_at: '2026-11-22T04:30:00.000Z',
  ends_at: '2026-11-22T06:15:00.000Z',
  status: 'upcoming' as const,
}
const mock = (registered: boolean): QuizListItem => ({
  id: 1,
  title: { en: 'Loksewa Live Mock', ne: 'लोकसेवा लाइभ मक' },
  duration_minutes: 120,
  difficulty: 'medium',
  is_paid_tier: false,
  allowed_attempts: 1,
  remaining_attempts: 1,
  has_attempt_in_progress: false,
  can_start: false,
  start_time: '2026-11-01T00:00:00.000Z',
  end_time: null,
  question_count: 100,
  sections: [],
  live,
  registered,
})
const paper = { quiz_id: 1, cipher: 'A256GCM', iv: 'AAAAAAAAAAAAAAAA', data: 'AAAA' }

// WEB.md "Tables, and a live mock's paper ahead of time" (docs/decisions/069).
describe("a live mock's paper on the dashboard", () => {
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime('2026-11-21T06:00:00.000Z')
    const claims = { user_id: USER_ID, username: 'sita', is_admin: false, exp: Math.floor(Date.now() / 1000) + 3600 }
    sessionStore.setTokens({ access: `e30.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.sig`, refresh: 'r' })
    await forgetLivePaper(USER_ID, 1)
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('is fetched for a registered learner from 24 hours before, kept, and the card says it is ready', async () => {
    const network = fakeNetwork({
      'GET /api/quizzes/': () => ({ body: [mock(true)] }),
      'GET /api/quizzes/1/live-paper/': () => ({ body: paper }),
    })
    renderRoutes([page(DashboardPage, '/')], { path: '/' })
    const card = (await screen.findByRole('heading', { name: 'Loksewa Live Mock' })).closest('li')!
    expect(await within(card).findByText('Paper downloaded: ready for the start')).toBeInTheDocument()
    expect(network.callsTo('GET', '/api/quizzes/1/live-paper/')).toHaveLength(1)
    expect(await hasLivePaper(USER_ID, 1)).toBe(true)
  })

  it.each([
    ['a learner who has not registered', false, '2026-11-21T06:00:00.000Z'],
    ['a registered learner earlier than 24 hours before', true, '2026-11-21T04:14:00.000Z'],
  ])('is not fetched for %s', async (_who, registered, now) => {
    vi.setSystemTime(now)
    const network = fakeNetwork({ 'GET /api/quizzes/': () => ({ body: [mock(registered)] }) })
    renderRoutes([page(DashboardPage, '/')], { path: '/' })
    await screen.findByRole('heading', { name: 'Loksewa Live Mock' })
    expect(screen.queryByText('Paper downloaded: ready for the start')).toBeNull()
    expect(network.callsTo('GET', '/api/quizzes/1/live-paper/')).toHaveLength(0)
  })
})
