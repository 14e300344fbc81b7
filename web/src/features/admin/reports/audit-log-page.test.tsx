import type { AuditEvent, AuditPage } from '@quiz/contracts'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, renderRoutes } from '../../../test/page-test-utils'
import { Component as AuditLogPage } from './audit-log-page'

// Long tables in two languages on a busy 2-core machine.
vi.setConfig({ testTimeout: 20_000 })

const quizEdit: AuditEvent = {
  id: 3,
  at: '2026-11-22T07:00:00.000Z',
  actor: { id: 1, username: 'boss' },
  client_address: '203.0.113.7',
  action: 'update',
  entity_type: 'quiz',
  entity_id: 12,
  entity_label: 'Physics',
  before: { duration_minutes: 90, is_paid_tier: false, end_time: null },
  after: { duration_minutes: 60, is_paid_tier: true, end_time: '2026-12-01T00:00:00.000Z' },
}
const grant: AuditEvent = {
  id: 2,
  at: '2026-11-21T07:00:00.000Z',
  actor: { id: null, username: 'root' },
  client_address: null,
  action: 'admin_grant',
  entity_type: 'user',
  entity_id: 4,
  entity_label: 'sita',
  before: null,
  after: { is_admin: true, password: 'changed', title: { en: 'Only English', ne: 'नेपालीमा' } },
}

function renderAudit(pages: AuditPage[] | ((query: URLSearchParams) => AuditPage), language: 'en' | 'ne' = 'en') {
  const queries: URLSearchParams[] = []
  const network = fakeNetwork({
    'GET /api/admin/audit/': () => {
      const query = new URL(String(network.fetchMock.mock.calls.at(-1)![0]), 'http://localhost').searchParams
      queries.push(query)
      return { body: typeof pages === 'function' ? pages(query) : pages[Math.min(queries.length, pages.length) - 1] }
    },
  })
  renderRoutes([page(AuditLogPage, '/admin/audit')], { path: '/admin/audit', language })
  return queries
}

afterEach(() => vi.unstubAllGlobals())

describe('audit log page', () => {
  it('shows who, when, what and a changed-fields diff, newest first', async () => {
    renderAudit([{ count: 2, results: [quizEdit, grant] }])
    const table = await screen.findByRole('table')
    const rows = within(table).getAllByRole('row')
    expect(rows[1]).toHaveTextContent('boss')
    expect(rows[1]).toHaveTextContent('203.0.113.7')
    expect(rows[1]).toHaveTextContent('ChangedQuiz #12Physics')
    expect(rows[1]).toHaveTextContent('Duration (minutes)90 → 60')
    expect(rows[1]).toHaveTextContent('Paid tierNo → Yes')
    expect(rows[1]).toHaveTextContent('End time(none) → 1 Dec 2026')
    expect(within(rows[1]!).getByText('90').closest('del')).not.toBeNull()
    expect(within(rows[1]!).getByText('60').closest('ins')).not.toBeNull()
    // The command line is named as such; a secret is only ever "changed".
    expect(rows[2]).toHaveTextContent('root (command line)')
    expect(rows[2]).toHaveTextContent('Made an administratorUser #4sita')
    expect(rows[2]).toHaveTextContent('PasswordchangedTitleOnly English')
    expect(screen.getByText('Entries: 2')).toBeInTheDocument()
  })

  it('sends the filters (dates as whole days) and goes through pages', async () => {
    const queries = renderAudit((query) =>
      query.get('page') === '2'
        ? { count: 51, results: [grant] }
        : { count: 51, results: Array.from({ length: 50 }, (_, i) => ({ ...quizEdit, id: 100 + i })) },
    )
    const user = userEvent.setup({ delay: null })
    await screen.findByRole('table')
    await user.type(screen.getByLabelText('Who (username)'), ' Boss ')
    await user.selectOptions(screen.getByLabelText('What kind'), 'Quiz')
    await user.selectOptions(screen.getByLabelText('Action'), 'Changed')
    await user.type(screen.getByLabelText('From (date)'), '2026-11-20')
    await user.type(screen.getByLabelText('To (date, included)'), '2026-11-22')
    await user.click(screen.getByRole('button', { name: 'Apply filters' }))
    await vi.waitFor(() => expect(queries).toHaveLength(2))
    const sent = queries[1]!
    expect(Object.fromEntries(sent)).toMatchObject({ actor: 'Boss', entity_type: 'quiz', action: 'update', page: '1' })
    // "To" is exclusive on the server: the whole chosen day is in, so it is the next midnight, local time.
    expect(new Date(sent.get('from')!).getTime()).toBe(new Date(2026, 10, 20).getTime())
    expect(new Date(sent.get('to')!).getTime()).toBe(new Date(2026, 10, 23).getTime())

    expect(await screen.findByText('Page 1 of 2')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument()
    expect(queries.at(-1)!.get('page')).toBe('2')
    expect(queries.at(-1)!.get('actor')).toBe('Boss')

    await user.click(screen.getByRole('button', { name: 'Clear' }))
    await vi.waitFor(() => expect(queries.at(-1)!.get('actor')).toBeNull())
    expect(screen.getByLabelText('Who (username)')).toHaveValue('')
  })

  it('says when nothing matches', async () => {
    renderAudit([{ count: 0, results: [] }])
    expect(await screen.findByText('No entries match these filters.')).toBeInTheDocument()
  })

  it('says when the log cannot be loaded', async () => {
    fakeNetwork({ 'GET /api/admin/audit/': () => ({ status: 500, body: { detail: 'x', code: 'server_error' } }) })
    renderRoutes([page(AuditLogPage, '/admin/audit')], { path: '/admin/audit' })
    expect(await screen.findByText('Failed to load the audit log.')).toBeInTheDocument()
  })

  it('speaks Nepali: Bikram Sambat dates, Devanagari digits, translated fields and values', async () => {
    renderAudit([{ count: 2, results: [quizEdit, grant] }], 'ne')
    const table = await screen.findByRole('table')
    const rows = within(table).getAllByRole('row')
    expect(rows[1]).toHaveTextContent('२०८३ मंसिर ६, १२:४५')
    expect(rows[1]).toHaveTextContent('अवधि (मिनेट)९० → ६०')
    expect(rows[1]).toHaveTextContent('क्विज #१२')
    expect(rows[2]).toHaveTextContent('root (कमान्ड लाइन)')
    expect(rows[2]).toHaveTextContent('पासवर्डपरिवर्तन भयो')
    expect(rows[2]).toHaveTextContent('नेपालीमा')
    expect(screen.getByRole('heading', { level: 1, name: 'अडिट लग' })).toBeInTheDocument()
  })
})
