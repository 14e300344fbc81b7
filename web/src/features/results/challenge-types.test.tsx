import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, polyfillDialog, renderRoutes } from '../../test/page-test-utils'
import type { ReportCard } from './results.api'
import { Component as ReportPage } from './report-page'

// API.md "Question types": a challenge proposes a right set (multiple) or a value (numeric).

const text = (en: string) => ({ en, ne: '', html: null })
const option = (id: number, en: string, isCorrect: boolean) => ({
  id,
  text: text(en),
  is_correct: isCorrect,
  image: null,
})

const report = (): ReportCard =>
  ({
    id: 30,
    attempt_number: 1,
    quiz: { id: 3, title: { en: 'Science', ne: 'विज्ञान' }, live: false },
    ranked: true,
    mode: 'online',
    score: 0,
    marking: 'none',
    written: null,
    correct: 0,
    incorrect: 2,
    unanswered: 0,
    completed_timestamp: '2026-11-20T08:00:00.000Z',
    questions: [
      {
        id: 1,
        type: 'multiple',
        text: text('Which are primes?'),
        hint: null,
        topic: '',
        image: null,
        options: [option(11, 'Two', true), option(12, 'Four', false), option(13, 'Five', true)],
      },
      {
        id: 2,
        type: 'numeric',
        text: text('What is pi to two places?'),
        hint: null,
        topic: '',
        image: null,
        options: [],
        answer: { value: 3.14, tolerance: 0 },
      },
    ],
    answers: [
      {
        question: 1,
        selected_option: null,
        selected_option_ids: [12],
        marked: false,
        time_spent_seconds: 5,
        flag: null,
        regrade: null,
      },
      {
        question: 2,
        selected_option: null,
        value: '3',
        marked: false,
        time_spent_seconds: 5,
        flag: null,
        regrade: null,
      },
    ],
    analysis: {
      topics: [],
      negative_marks: 0,
      participants: 1,
      rank: 1,
      percentile: 100,
      average_score: 0,
      highest_score: 0,
    },
    max_score: 2,
    time_vs_top: [],
    sections: [],
    challenge_closes_at: '2999-01-01T00:00:00.000Z',
    key_withheld: null,
    key_withheld_until: null,
  }) as unknown as ReportCard

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

const flagged = (body: unknown) => {
  const sent = body as { question_id: number; reason: string }
  return {
    status: 201,
    body: {
      id: 7,
      proposed_option_id: null,
      proposed_option_ids: null,
      proposed_value: null,
      note: '',
      status: 'open',
      ...sent,
    },
  }
}

async function openChallenge(user: ReturnType<typeof userEvent.setup>, name: RegExp) {
  await user.click(await screen.findByRole('button', { name }))
  const dialog = screen.getByRole('dialog')
  await user.click(within(dialog).getByRole('button', { name: 'Challenge the key' }))
  await user.click(within(dialog).getByRole('radio', { name: 'The marked answer is wrong' }))
  return dialog
}

describe('challenging the key of multiple and numeric questions', () => {
  it('proposes a right set with checkboxes', async () => {
    const user = userEvent.setup()
    const current = report()
    const network = fakeNetwork({
      'GET /api/results/30/': () => ({ body: current }),
      'POST /api/results/30/flags/': ({ body }) => {
        const answer = flagged(body)
        current.answers[0]!.flag = answer.body as never
        return answer
      },
    })
    renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/30' })
    const dialog = await openChallenge(user, /Which are primes/)
    expect(within(dialog).queryByRole('combobox', { name: 'The right option is' })).not.toBeInTheDocument()
    await user.click(within(dialog).getByRole('checkbox', { name: /Four/ }))
    await user.click(within(dialog).getByRole('checkbox', { name: /Five/ }))
    await user.click(within(dialog).getByRole('button', { name: 'Send challenge' }))
    expect(network.callsTo('POST', '/api/results/30/flags/')[0]!.body).toEqual({
      question_id: 1,
      reason: 'wrong_key',
      proposed_option_ids: [12, 13],
    })
    expect(await within(dialog).findByText('Option B, C')).toBeInTheDocument()
    expect(within(dialog).getByText('The right options are')).toBeInTheDocument()
  }, 20_000)

  it('proposes a value checked by the number rule, refused as typed and not sent', async () => {
    const user = userEvent.setup()
    const network = fakeNetwork({
      'GET /api/results/30/': () => ({ body: report() }),
      'POST /api/results/30/flags/': ({ body }) => flagged(body),
    })
    renderRoutes([page(ReportPage, '/results/:attemptId')], { path: '/results/30' })
    const dialog = await openChallenge(user, /What is pi/)
    const field = within(dialog).getByRole('textbox', { name: 'The right answer is' })
    expect(field).toHaveAttribute('inputmode', 'decimal')
    await user.type(field, '3.1.4')
    expect(field).toHaveAttribute('aria-invalid', 'true')
    await user.click(within(dialog).getByRole('button', { name: 'Send challenge' }))
    expect(network.callsTo('POST', '/api/results/30/flags/')).toEqual([])
    await user.clear(field)
    await user.type(field, '३.१५')
    await user.click(within(dialog).getByRole('button', { name: 'Send challenge' }))
    expect(network.callsTo('POST', '/api/results/30/flags/')[0]!.body).toEqual({
      question_id: 2,
      reason: 'wrong_key',
      proposed_value: '३.१५',
    })
  }, 20_000)
})
