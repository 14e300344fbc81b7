import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, polyfillDialog, renderRoutes } from '../../test/page-test-utils'
import type { ReportFlag } from './challenges.api'
import type { ReportCard } from './results.api'
import { Component as ReportPage } from './report-page'

const question = (id: number, text: string) => ({
  id,
  text: { en: text, ne: '', html: null },
  hint: null,
  topic: '',
  image: null,
  options: [
    { id: id * 10 + 1, text: { en: 'Kathmandu', ne: 'काठमाडौं', html: null }, is_correct: true, image: null },
    { id: id * 10 + 2, text: { en: 'Pokhara', ne: 'पोखरा', html: null }, is_correct: false, image: null },
  ],
})

const reportWith = (overrides: Partial<ReportCard> = {}, flag: ReportFlag | null = null): ReportCard => ({
  id: 30,
  attempt_number: 1,
  quiz: { id: 3, title: { en: 'Capitals', ne: 'राजधानीहरू' }, live: false },
  ranked: true,
  mode: 'online',
  score: 0.8,
  marking: 'none',
  written: null,
  correct: 1,
  incorrect: 1,
  unanswered: 0,
  completed_timestamp: '2026-11-20T08:00:00.000Z',
  questions: [question(1, 'Capital of Nepal?'), question(2, 'Capital of Gandaki?')],
  answers: [
    { question: 1, selected_option: 11, marked: false, time_spent_seconds: 5, flag: null, regrade: null },
    { question: 2, selected_option: 22, marked: false, time_spent_seconds: 5, flag, regrade: null },
  ],
  analysis: {
    topics: [],
    negative_marks: 0.2,
    participants: 1,
    rank: 1,
    percentile: 100,
    average_score: 0.8,
    highest_score: 0.8,
  },
  max_score: 2,
  time_vs_top: [],
  sections: [],
  challenge_closes_at: '2999-01-01T00:00:00.000Z',
  key_withheld: null,
  key_withheld_until: null,
  ...overrides,
})

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

const openQuestion = async (user: ReturnType<typeof userEvent.setup>, name: RegExp) => {
  await user.click(await screen.findByRole('button', { name }))
  return screen.getByRole('dialog')
}

describe('challenging the key from the report', () => {
  it('sends the reason, the proposed option and the note, then shows the challenge under review', async () => {
    const user = userEvent.setup()
    let current = reportWith()
    const network = fakeNetwork({
      'GET /api/results/30/': () => ({ body: current }),
      'POST /api/results/30/flags/': ({ body }) => {
        const sent = body as {
          question_id: number
          reason: ReportFlag['reason']
          proposed_option_id?: number
          note?: string
        }
        const flag: ReportFlag = {
          id: 7,
          question_id: sent.question_id,
          reason: sent.reason,
          proposed_option_id: sent.proposed_option_id ?? null,
          proposed_option_ids: null,
          proposed_value: null,
          note: sent.note ?? '',
          status: 'open',
        }
        current = reportWith({}, flag)
        return { status: 201, body: flag }
      },
    })
    renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/30' })
    const dialog = await openQuestion(user, /Capital of Gandaki/)
    await user.click(within(dialog).getByRole('button', { name: 'Challenge the key' }))

    // No reason: refused on the spot, nothing sent.
    await user.click(within(dialog).getByRole('button', { name: 'Send challenge' }))
    expect(within(dialog).getByText('Choose a reason.')).toBeInTheDocument()
    expect(network.callsTo('POST', '/api/results/30/flags/')).toEqual([])

    await user.click(within(dialog).getByRole('radio', { name: 'The marked answer is wrong' }))
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'The right option is' }), 'B. Pokhara')
    await user.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'Pokhara is the capital of Gandaki.')
    await user.click(within(dialog).getByRole('button', { name: 'Send challenge' }))

    expect(network.callsTo('POST', '/api/results/30/flags/')[0]!.body).toEqual({
      question_id: 2,
      reason: 'wrong_key',
      proposed_option_id: 22,
      note: 'Pokhara is the capital of Gandaki.',
    })
    expect(await within(dialog).findByText('Under review')).toBeInTheDocument()
    expect(within(dialog).getByText('Option B')).toBeInTheDocument()
    expect(within(dialog).getByText('Pokhara is the capital of Gandaki.')).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Change my challenge' })).toBeInTheDocument()
  }, 20_000)

  it('shows the server refusing on its field and a closed window as such', async () => {
    const user = userEvent.setup()
    let refusal = {
      status: 400,
      body: { detail: 'Invalid.', code: 'validation_error', errors: { note: ['Note too long.'] } },
    }
    fakeNetwork({
      'GET /api/results/30/': () => ({ body: reportWith() }),
      'POST /api/results/30/flags/': () => refusal,
    })
    renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/30' })
    const dialog = await openQuestion(user, /Capital of Nepal/)
    await user.click(within(dialog).getByRole('button', { name: 'Challenge the key' }))
    await user.click(within(dialog).getByRole('radio', { name: 'Other' }))
    await user.click(within(dialog).getByRole('button', { name: 'Send challenge' }))
    expect(await within(dialog).findByText('Note too long.')).toBeInTheDocument()
    expect(within(dialog).getByRole('textbox', { name: 'Note' })).toHaveAttribute('aria-invalid', 'true')

    refusal = { status: 409, body: { detail: 'Closed.', code: 'challenge_closed' } as typeof refusal.body }
    await user.click(within(dialog).getByRole('button', { name: 'Send challenge' }))
    expect(
      await within(dialog).findByText("The window for challenging this quiz's key has closed."),
    ).toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Send challenge' })).not.toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Challenge the key' })).not.toBeInTheDocument()
  }, 20_000)

  it('offers no challenge once the window has closed', async () => {
    const user = userEvent.setup()
    fakeNetwork({
      'GET /api/results/30/': () => ({ body: reportWith({ challenge_closes_at: '2020-01-01T00:00:00.000Z' }) }),
    })
    renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/30' })
    const dialog = await openQuestion(user, /Capital of Nepal/)
    expect(within(dialog).queryByRole('button', { name: 'Challenge the key' })).not.toBeInTheDocument()
    expect(within(dialog).getByText("The window for challenging this quiz's key has closed.")).toBeInTheDocument()
  }, 20_000)

  it('says in the row and the dialog that the key changed, with signed marks in Nepali digits', async () => {
    const user = userEvent.setup()
    const decided = reportWith(
      { challenge_closes_at: '2020-01-01T00:00:00.000Z' },
      {
        id: 7,
        question_id: 2,
        reason: 'wrong_key',
        proposed_option_id: 22,
        proposed_option_ids: null,
        proposed_value: null,
        note: '',
        status: 'accepted',
      },
    )
    decided.answers[1]!.regrade = {
      old_marks: -0.2,
      new_marks: 1,
      decided_at: '2026-11-21T08:00:00.000Z',
      note: 'Pokhara is right.',
    }
    fakeNetwork({ 'GET /api/results/30/': () => ({ body: decided }) })
    renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/30', language: 'ne' })
    const row = await screen.findByRole('button', { name: /Capital of Gandaki/ })
    expect(row).toHaveTextContent('उत्तरकुञ्जी बदलियो: \u2212०.२० → +१.००')
    await user.click(row)
    const dialog = screen.getByRole('dialog')
    expect(within(dialog).getByText('स्वीकृत')).toBeInTheDocument()
    expect(within(dialog).getByText('Pokhara is right.')).toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'मेरो चुनौती बदल्नुहोस्' })).not.toBeInTheDocument()
  }, 20_000)
})
