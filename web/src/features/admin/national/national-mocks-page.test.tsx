import { configure, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, renderRoutes, signInAs } from '../../../test/page-test-utils'
import { Component as NationalMocksPage } from './national-mocks-page'

vi.setConfig({ testTimeout: 20_000 })
configure({ asyncUtilTimeout: 4000 })

const hour = 3_600_000
const mock = (id: number, startsIn: number, extra: object = {}) => ({
  id,
  title: { en: `National mock ${id}`, ne: `राष्ट्रिय मक ${id}` },
  duration_minutes: 120,
  live: {
    starts_at: new Date(Date.now() + startsIn).toISOString(),
    join_minutes: 15,
    ends_at: new Date(Date.now() + startsIn + 2.25 * hour).toISOString(),
  },
  question_count: 100,
  taking_part: false,
  quiz_id: null,
  ...extra,
})
const LIST = 'GET /api/admin/national-mocks/'
const quiet = { 'GET /api/admin/key-challenges/': () => ({ body: { count: 0, results: [] } }) }

beforeEach(() => signInAs({ username: 'boss', is_admin: true }))
afterEach(() => vi.unstubAllGlobals())

describe('national mocks of an institute admin', () => {
  it('takes part in an upcoming mock, and withdraws from one it takes part in', async () => {
    const net = fakeNetwork({
      ...quiet,
      [LIST]: () => ({ body: { items: [mock(1, 24 * hour), mock(2, 48 * hour, { taking_part: true, quiz_id: 30 })] } }),
      'POST /api/admin/national-mocks/1/join/': () => ({
        status: 201,
        body: mock(1, 24 * hour, { taking_part: true, quiz_id: 31 }),
      }),
      'DELETE /api/admin/national-mocks/2/join/': () => ({ status: 204 }),
    })
    renderRoutes([page(NationalMocksPage, '/n')], { path: '/n' })
    const first = await screen.findByRole('listitem', { name: 'National mock 1' })
    expect(within(first).getByText('Not taking part')).toBeInTheDocument()
    expect(within(first).getByText('100 questions · 120 minutes')).toBeInTheDocument()
    await userEvent.click(within(first).getByRole('button', { name: 'Take part in National mock 1' }))
    expect(await screen.findByText('Your institute takes part in National mock 1.')).toBeInTheDocument()
    const second = screen.getByRole('listitem', { name: 'National mock 2' })
    expect(within(second).getByText('Ranks appear after the common end.')).toBeInTheDocument()
    await userEvent.click(within(second).getByRole('button', { name: 'Withdraw from National mock 2' }))
    expect(await screen.findByText('Your institute no longer takes part in National mock 2.')).toBeInTheDocument()
    expect(net.callsTo('POST', '/api/admin/national-mocks/1/join/')).toHaveLength(1)
    expect(net.callsTo('DELETE', '/api/admin/national-mocks/2/join/')).toHaveLength(1)
  })

  it('says in words when the mock has started (national_mock_started)', async () => {
    fakeNetwork({
      ...quiet,
      [LIST]: () => ({ body: { items: [mock(3, 60_000)] } }),
      'POST /api/admin/national-mocks/3/join/': () => ({
        status: 409,
        body: { detail: 'This national mock has already started.', code: 'national_mock_started' },
      }),
    })
    renderRoutes([page(NationalMocksPage, '/n')], { path: '/n' })
    await userEvent.click(await screen.findByRole('button', { name: 'Take part in National mock 3' }))
    expect(
      await screen.findByText('This national mock has already started: taking part or withdrawing is closed.'),
    ).toBeInTheDocument()
  })

  it('after the common end, lists the institute’s learners with institute and national ranks, and offers no joining', async () => {
    fakeNetwork({
      ...quiet,
      [LIST]: () => ({ body: { items: [mock(4, -3 * hour, { taking_part: true, quiz_id: 44 })] } }),
      'GET /api/quizzes/44/leaderboard/': () => ({
        body: {
          status: 'final',
          participants: 2,
          top: [
            { rank: 1, name: 'Sita Rai', score: 88, national_rank: 5 },
            { rank: 2, name: 'Ram Thapa', score: 70.5, national_rank: 212 },
          ],
          me: null,
        },
      }),
    })
    renderRoutes([page(NationalMocksPage, '/n')], { path: '/n' })
    const table = await screen.findByRole('table')
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Institute rank', 'Learner', 'Score', 'National rank'])
    expect(within(table).getByRole('row', { name: /Ram Thapa/ })).toHaveTextContent('2Ram Thapa70.50212')
    expect(screen.getByText('2 of your learners took part.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Take part|Withdraw/ })).toBeNull()
  })

  it('is in Nepali, with the national error texts', async () => {
    fakeNetwork({
      ...quiet,
      [LIST]: () => ({ body: { items: [mock(5, 24 * hour)] } }),
      'POST /api/admin/national-mocks/5/join/': () => ({
        status: 409,
        body: { detail: 'x', code: 'national_mock_locked' },
      }),
    })
    renderRoutes([page(NationalMocksPage, '/n')], { path: '/n', language: 'ne' })
    expect(await screen.findByRole('heading', { name: 'राष्ट्रिय मक', level: 1 })).toBeInTheDocument()
    expect(await screen.findByText('१०० प्रश्न · १२० मिनेट')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'राष्ट्रिय मक ५मा सहभागी हुनुहोस्' }))
    expect(await screen.findByText('राष्ट्रिय मकको प्रतिलिपि संस्थाले परिवर्तन गर्न सक्दैन।')).toBeInTheDocument()
  })
})
