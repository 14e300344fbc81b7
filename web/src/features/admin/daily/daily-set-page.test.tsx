import type { DailyDay, DailySettings } from '@quiz/contracts'
import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { addDays, nepalToday } from '../../../lib/daily-date'
import { answerFetch, signInAs, type SentRequest } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { Component as DailySetPage } from './daily-set-page'

configure({ asyncUtilTimeout: 4000 })
vi.setConfig({ testTimeout: 20_000 })

const stored: DailySettings = {
  enabled: true,
  topics: ['Constitution', 'Geography'],
  tags: ['loksewa'],
  count: 5,
  duration_minutes: 10,
  marks_correct: 1,
  marks_wrong: 0.2,
  publish_at: '05:00',
}

const today = nepalToday()
const day = (ad: string, overrides: Partial<DailyDay> = {}): DailyDay => ({
  date: { ad, bs: null },
  published: false,
  fixed: false,
  quiz_id: null,
  questions: [],
  attempts: 0,
  mean: null,
  ...overrides,
})

/** The days the server lists between `from` and `to`: today published, the past days with attempts. */
function daysBetween(from: string, to: string): DailyDay[] {
  const days: DailyDay[] = []
  for (let at = from; at <= to; at = addDays(at, 1)) {
    if (at === today)
      days.push(
        day(at, {
          published: true,
          quiz_id: 9,
          questions: [{ id: 101, text: 'Who wrote the Muna Madan?', topic: 'Literature' }],
        }),
      )
    else if (at === addDays(today, -1)) days.push(day(at, { published: true, quiz_id: 8, attempts: 12, mean: 3.25 }))
    else days.push(day(at))
  }
  return days
}

let handler: (key: string, body: unknown) => { status: number; body: unknown } | undefined
const sent: SentRequest[] = []
beforeEach(() => {
  signInAs({ username: 'boss', is_admin: true })
  sent.length = 0
  answerFetch((key, body) => {
    const special = handler(key, body)
    if (special) return special
    if (key === 'GET /api/admin/daily-set/') return { status: 200, body: stored }
    const range = /^GET \/api\/admin\/daily-set\/days\/\?from=([\d-]+)&to=([\d-]+)$/.exec(key)
    if (range) return { status: 200, body: daysBetween(range[1]!, range[2]!) }
    return { status: 200, body: { count: 0, results: [] } }
  }, sent)
})
afterEach(() => vi.unstubAllGlobals())
const request = (key: string) => sent.find((entry) => entry.key === key)

describe('the admin\'s "Daily set"', () => {
  it('shows the settings and saves them as the contract says', async () => {
    handler = (key, body) =>
      key === 'PUT /api/admin/daily-set/' ? { status: 200, body: { ...stored, ...(body as object) } } : undefined
    renderWithProviders(<DailySetPage />)
    expect(await screen.findByLabelText('Topics')).toHaveValue('Constitution\nGeography')
    expect(screen.getByLabelText('Publish a daily set')).toBeChecked()
    const count = screen.getByLabelText('Questions (5 to 20)')
    await userEvent.clear(count)
    await userEvent.type(count, '12')
    await userEvent.clear(screen.getByLabelText('Publish time (Nepal time)'))
    await userEvent.type(screen.getByLabelText('Publish time (Nepal time)'), '06:30')
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    await waitFor(() => expect(request('PUT /api/admin/daily-set/')).toBeDefined())
    expect(request('PUT /api/admin/daily-set/')!.body).toEqual({
      enabled: true,
      topics: ['Constitution', 'Geography'],
      tags: ['loksewa'],
      count: 12,
      duration_minutes: 10,
      marks_correct: 1,
      marks_wrong: 0.2,
      publish_at: '06:30',
    })
    expect(await screen.findByText(/Settings saved/)).toBeInTheDocument()
  })

  it("shows the server's refusals at their fields", async () => {
    handler = (key) =>
      key === 'PUT /api/admin/daily-set/'
        ? {
            status: 400,
            body: {
              detail: 'Some fields are invalid.',
              code: 'validation_error',
              errors: {
                count: ['Choose between 5 and 20 questions.'],
                duration_minutes: ['Choose between 1 and 30 minutes.'],
              },
            },
          }
        : undefined
    renderWithProviders(<DailySetPage />)
    const count = await screen.findByLabelText('Questions (5 to 20)')
    await userEvent.clear(count)
    await userEvent.type(count, '40')
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    await waitFor(() => expect(count).toHaveAccessibleDescription('Choose between 5 and 20 questions.'))
    expect(screen.getByLabelText('Minutes (1 to 30)')).toHaveAccessibleDescription('Choose between 1 and 30 minutes.')
    expect(screen.getByRole('alert')).toHaveTextContent('The settings were not saved.')
  })

  it('lists the next 7 days; a published one cannot change, another takes question numbers', async () => {
    const tomorrow = addDays(today, 1)
    handler = (key, body) =>
      key === `PUT /api/admin/daily-set/days/${tomorrow}/`
        ? {
            status: 200,
            body: day(tomorrow, {
              fixed: true,
              questions: (body as { question_ids: number[] }).question_ids.map((id) => ({
                id,
                text: `Q${id}`,
                topic: null,
              })),
            }),
          }
        : undefined
    renderWithProviders(<DailySetPage />)
    const next = await screen.findByRole('region', { name: 'The next 7 days' })
    expect(await within(next).findByText(/Who wrote the Muna Madan\?/)).toBeInTheDocument()
    expect(next).toHaveTextContent('Published')
    // Today is published: six days offer a change.
    const changes = within(next).getAllByRole('button', { name: /Change questions/ })
    expect(changes).toHaveLength(6)
    await userEvent.click(changes[0]!)
    const ids = screen.getByLabelText('Question numbers from the bank')
    expect(ids).toHaveAccessibleDescription(/Exactly 5 numbers/)
    await userEvent.type(ids, '1, 2 3,4 5')
    await userEvent.click(screen.getByRole('button', { name: 'Save the day' }))
    await waitFor(() => expect(request(`PUT /api/admin/daily-set/days/${tomorrow}/`)).toBeDefined())
    expect(request(`PUT /api/admin/daily-set/days/${tomorrow}/`)!.body).toEqual({ question_ids: [1, 2, 3, 4, 5] })
  })

  it('says in a sentence that a day went out meanwhile (409 day_published), and shows a wrong number at the field', async () => {
    const tomorrow = addDays(today, 1)
    let answer = 409
    handler = (key) =>
      key === `PUT /api/admin/daily-set/days/${tomorrow}/`
        ? answer === 409
          ? {
              status: 409,
              body: { detail: 'This day’s set is already published.', code: 'day_published' },
            }
          : {
              status: 400,
              body: {
                detail: 'Some fields are invalid.',
                code: 'validation_error',
                errors: { 'question_ids.2': ['Not a question of your bank.'] },
              },
            }
        : undefined
    renderWithProviders(<DailySetPage />)
    const next = await screen.findByRole('region', { name: 'The next 7 days' })
    await userEvent.click((await within(next).findAllByRole('button', { name: /Change questions/ }))[0]!)
    const ids = screen.getByLabelText('Question numbers from the bank')
    await userEvent.type(ids, '1 2 777 4 5')
    await userEvent.click(screen.getByRole('button', { name: 'Save the day' }))
    expect(await within(next).findByRole('alert')).toHaveTextContent(
      "This day's set is already published: its questions can no longer change.",
    )
    answer = 400
    await userEvent.click(screen.getByRole('button', { name: 'Save the day' }))
    await waitFor(() => expect(ids).toHaveAccessibleDescription(/Question 777 is not a live question of your bank./))
    // Not numbers at all: said before asking the server.
    await userEvent.clear(ids)
    await userEvent.type(ids, 'one, two')
    await userEvent.click(screen.getByRole('button', { name: 'Save the day' }))
    expect(ids).toHaveAccessibleDescription(/Write question numbers/)
  })

  it("lists the past days' attempts and mean", async () => {
    handler = () => undefined
    renderWithProviders(<DailySetPage />)
    const past = await screen.findByRole('region', { name: 'Past days' })
    const table = await within(past).findByRole('table')
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(2)
    expect(rows[1]).toHaveTextContent(/12\s*3\.25/)
  })

  it('says so when the settings fail to load', async () => {
    handler = (key) =>
      key === 'GET /api/admin/daily-set/' ? { status: 500, body: { detail: 'x', code: 'server_error' } } : undefined
    renderWithProviders(<DailySetPage />)
    expect(await screen.findByText('The daily set could not be loaded.')).toBeInTheDocument()
  })

  it('speaks Nepali', async () => {
    handler = () => undefined
    renderWithProviders(<DailySetPage />, { language: 'ne' })
    expect(await screen.findByRole('heading', { level: 1, name: 'दैनिक सेट' })).toBeInTheDocument()
    expect(await screen.findByLabelText('प्रश्न (५ देखि २० सम्म)')).toHaveValue(5)
    expect(await screen.findByRole('region', { name: 'आउँदा ७ दिन' })).toBeInTheDocument()
  })
})
