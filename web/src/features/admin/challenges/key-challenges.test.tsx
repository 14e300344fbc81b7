import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, renderRoutes } from '../../../test/page-test-utils'
import type { FlagQueue, KeyDecisionBody, KeyDecisionResult } from './key-challenges.api'
import { Component as KeyChallengesPage } from './key-challenges-page'

const text = (en: string) => ({ en, ne: '', html: null })

const queue: FlagQueue = {
  count: 1,
  results: [
    {
      question: {
        id: 5,
        revision_id: 50,
        text: text('Capital of Gandaki?'),
        options: [
          { id: 51, text: text('Kathmandu'), is_correct: true, chosen: 3 },
          { id: 52, text: text('Pokhara'), is_correct: false, chosen: 9 },
          { id: 53, text: text('Butwal'), is_correct: false, chosen: 1 },
        ],
      },
      quizzes: [{ id: 3, title: { en: 'Capitals', ne: 'राजधानीहरू' } }],
      flags: { total: 4, by_reason: { wrong_key: 3, typo: 1 }, proposed: { '52': 3 } },
      notes: [{ text: 'Pokhara is the capital.', reason: 'wrong_key', created_at: '2026-11-21T08:00:00.000Z' }],
      facility: 0.23,
      discrimination: -0.31,
      status: 'open',
    },
  ],
}

const dryRun: KeyDecisionResult = {
  attempts_affected: 2,
  learners_affected: 2,
  score_changes: [
    { attempt_id: 70, username: 'sita', old_score: -0.2, new_score: 1 },
    { attempt_id: 71, username: 'ram', old_score: 1, new_score: -0.2 },
  ],
  rank_changes: [{ username: 'sita', quiz_id: 3, old_rank: 5, new_rank: 1 }],
}

function fakeServer(decide: (body: KeyDecisionBody) => { status?: number; body?: unknown }) {
  return fakeNetwork({
    'GET /api/admin/flags/': () => ({ body: queue }),
    'POST /api/admin/questions/5/key/': ({ body }) => decide(body as KeyDecisionBody),
  })
}

afterEach(() => vi.unstubAllGlobals())

describe('key challenges page', () => {
  it('shows the flags by reason, proposed options, option counts, the figures and the notes', async () => {
    fakeServer(() => ({ status: 500 }))
    renderRoutes([page(KeyChallengesPage, '/admin/key-challenges')], { path: '/admin/key-challenges' })
    const card = await screen.findByRole('article', { name: /Question 5/ })
    expect(within(card).getByRole('heading', { name: /4 challenges/ })).toBeInTheDocument()
    expect(within(card).getByText('In: Capitals')).toBeInTheDocument()
    const rows = within(card).getAllByRole('row')
    expect(rows[1]).toHaveTextContent(/AKey.*Kathmandu.*3.*0/)
    expect(rows[2]).toHaveTextContent(/B.*Pokhara.*9.*3/)
    expect(within(card).getByText('The marked answer is wrong: 3')).toBeInTheDocument()
    expect(within(card).getByText('A typing mistake changes the meaning: 1')).toBeInTheDocument()
    expect(within(card).getByText('23%')).toBeInTheDocument()
    expect(within(card).getByText('-0.31')).toBeInTheDocument()
    expect(within(card).getByText('Pokhara is the capital.')).toBeInTheDocument()
  }, 20_000)

  it('previews a change with its score and rank changes, applies exactly that, and offers Apply only for a fresh preview', async () => {
    const user = userEvent.setup()
    const network = fakeServer((body) => (body.dry_run ? { body: dryRun } : { body: { ...dryRun, key_version: 2 } }))
    renderRoutes([page(KeyChallengesPage, '/admin/key-challenges')], { path: '/admin/key-challenges' })
    const card = await screen.findByRole('article', { name: /Question 5/ })
    await user.click(within(card).getByRole('button', { name: 'Decide' }))
    const form = within(card).getByRole('form', { name: 'Key decision' })

    const apply = within(form).getByRole('button', { name: 'Apply' })
    expect(apply).toBeDisabled()
    // Nothing is sent without a note.
    await user.click(within(form).getByRole('button', { name: 'Preview (dry run)' }))
    expect(within(form).getByText('Write a note: the learners who challenged receive it.')).toBeInTheDocument()
    expect(network.callsTo('POST', '/api/admin/questions/5/key/')).toEqual([])

    await user.click(within(form).getByRole('radio', { name: /Change the key/ }))
    await user.click(within(form).getByRole('radio', { name: 'Option B' }))
    await user.type(within(form).getByRole('textbox', { name: /Note to the learners/ }), 'Pokhara is right.')
    await user.click(within(form).getByRole('button', { name: 'Preview (dry run)' }))
    expect(network.callsTo('POST', '/api/admin/questions/5/key/')[0]!.body).toEqual({
      revision_id: 50,
      action: 'change',
      correct_option_ids: [52],
      note: 'Pokhara is right.',
      dry_run: true,
    })
    expect(await within(form).findByText('2 finished attempts of 2 learners would change score.')).toBeInTheDocument()
    const scores = within(form).getByRole('table', { name: /Score changes/ })
    expect(within(scores).getAllByRole('row')[1]).toHaveTextContent(/sita.*70.*-0\.20.*1\.00/)
    const ranks = within(form).getByRole('table', { name: /Rank changes/ })
    expect(within(ranks).getAllByRole('row')[1]).toHaveTextContent(/sita.*Capitals.*5.*1/)

    // Changing the form after the preview withdraws Apply until it is previewed again.
    await user.type(within(form).getByRole('textbox', { name: /Note to the learners/ }), '!')
    expect(within(form).getByRole('button', { name: 'Apply' })).toBeDisabled()
    await user.type(within(form).getByRole('textbox', { name: /Note to the learners/ }), '{Backspace}')
    await user.click(within(form).getByRole('button', { name: 'Preview (dry run)' }))
    await within(form).findByRole('table', { name: /Score changes/ })
    await user.click(within(form).getByRole('button', { name: 'Apply' }))
    const sent = network.callsTo('POST', '/api/admin/questions/5/key/')
    expect(sent.at(-1)!.body).toEqual({ ...(sent[0]!.body as object), dry_run: false })
    expect(
      await within(card).findByText('Applied as key version 2: 2 finished attempts of 2 learners re-scored.'),
    ).toBeInTheDocument()
  }, 20_000)

  it('shows the server refusing on the fields it names, and the drop policy', async () => {
    const user = userEvent.setup()
    fakeServer(() => ({
      status: 400,
      body: {
        detail: 'Invalid.',
        code: 'validation_error',
        errors: { correct_option_ids: ['Accepting several answers names at least two options.'] },
      },
    }))
    renderRoutes([page(KeyChallengesPage, '/admin/key-challenges')], { path: '/admin/key-challenges' })
    const card = await screen.findByRole('article', { name: /Question 5/ })
    await user.click(within(card).getByRole('button', { name: 'Decide' }))
    const form = within(card).getByRole('form', { name: 'Key decision' })
    await user.click(within(form).getByRole('radio', { name: /Drop the question/ }))
    expect(within(form).getByRole('combobox', { name: 'Marks for the dropped question' })).toHaveValue('full_marks_all')
    await user.click(within(form).getByRole('radio', { name: /Accept several/ }))
    await user.click(within(form).getByRole('checkbox', { name: 'Option B' }))
    await user.type(within(form).getByRole('textbox', { name: /Note to the learners/ }), 'Both.')
    await user.click(within(form).getByRole('button', { name: 'Preview (dry run)' }))
    expect(await within(form).findByText('Accepting several answers names at least two options.')).toBeInTheDocument()
    expect(within(form).getByRole('button', { name: 'Apply' })).toBeDisabled()
  }, 20_000)
})
