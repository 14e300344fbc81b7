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
        type: 'choice',
        answer: null,
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

describe('a decision on a multiple or a numeric question (decision 128)', () => {
  const entry = queue.results[0]!
  const typed: FlagQueue = {
    count: 2,
    results: [
      {
        ...entry,
        question: {
          id: 6,
          revision_id: 60,
          type: 'multiple',
          answer: null,
          text: text('Which are prime?'),
          options: [
            { id: 61, text: text('2'), is_correct: true, chosen: 4 },
            { id: 62, text: text('4'), is_correct: false, chosen: 1 },
            { id: 63, text: text('5'), is_correct: false, chosen: 2 },
          ],
        },
      },
      {
        ...entry,
        question: {
          id: 7,
          revision_id: 70,
          type: 'numeric',
          answer: { value: 3.14, tolerance: 0.01 },
          text: text('Give pi.'),
          options: [],
        },
      },
    ],
  }
  const serve = () =>
    fakeNetwork({
      'GET /api/admin/flags/': () => ({ body: typed }),
      'POST /api/admin/questions/6/key/': () => ({ body: dryRun }),
      'POST /api/admin/questions/7/key/': () => ({ body: dryRun }),
    })
  const open = async (user: ReturnType<typeof userEvent.setup>, question: number) => {
    renderRoutes([page(KeyChallengesPage, '/admin/key-challenges')], { path: '/admin/key-challenges' })
    const card = await screen.findByRole('article', { name: new RegExp(`Question ${question}`) })
    await user.click(within(card).getByRole('button', { name: 'Decide' }))
    return within(card).getByRole('form', { name: 'Key decision' })
  }

  it("changes a multiple question's right set with checkboxes, and offers no Accept several", async () => {
    const user = userEvent.setup()
    const network = serve()
    const form = await open(user, 6)
    expect(within(form).queryByRole('radio', { name: /Accept several/ })).not.toBeInTheDocument()
    await user.click(within(form).getByRole('radio', { name: /Change the key/ }))
    // The current right option stays ticked; a second is added to the set.
    expect(within(form).getByRole('checkbox', { name: 'Option A' })).toBeChecked()
    await user.click(within(form).getByRole('checkbox', { name: 'Option C' }))
    await user.type(within(form).getByRole('textbox', { name: /Note to the learners/ }), '5 is prime too.')
    await user.click(within(form).getByRole('button', { name: 'Preview (dry run)' }))
    await within(form).findByRole('table', { name: /Score changes/ })
    expect(network.callsTo('POST', '/api/admin/questions/6/key/')[0]!.body).toEqual({
      revision_id: 60,
      action: 'change',
      correct_option_ids: [61, 63],
      note: '5 is prime too.',
      dry_run: true,
    })
  }, 20_000)

  it("changes a numeric question's value to a range, refusing a number it cannot read before sending", async () => {
    const user = userEvent.setup()
    const network = serve()
    const form = await open(user, 7)
    await user.click(within(form).getByRole('radio', { name: /Change the key/ }))
    // The value it scores on now is the starting point.
    expect(within(form).getByRole('textbox', { name: 'Value' })).toHaveValue('3.14')
    await user.click(within(form).getByRole('radio', { name: 'A range' }))
    await user.type(within(form).getByRole('textbox', { name: 'From' }), '3.4')
    await user.type(within(form).getByRole('textbox', { name: 'To' }), 'abc')
    await user.type(within(form).getByRole('textbox', { name: /Note to the learners/ }), 'Any value in the range.')
    await user.click(within(form).getByRole('button', { name: 'Preview (dry run)' }))
    expect(within(form).getByText('Write the numbers: digits with at most one decimal point.')).toBeInTheDocument()
    expect(network.callsTo('POST', '/api/admin/questions/7/key/')).toEqual([])
    await user.clear(within(form).getByRole('textbox', { name: 'To' }))
    await user.type(within(form).getByRole('textbox', { name: 'To' }), '3.6')
    await user.click(within(form).getByRole('button', { name: 'Preview (dry run)' }))
    await within(form).findByRole('table', { name: /Score changes/ })
    expect(network.callsTo('POST', '/api/admin/questions/7/key/')[0]!.body).toEqual({
      revision_id: 70,
      action: 'change',
      answer: { min: 3.4, max: 3.6 },
      note: 'Any value in the range.',
      dry_run: true,
    })
  }, 20_000)
})
