import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { requestTo } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import type { AdminQuestion } from './quizzes.api'
import { QuestionForm } from './question-form'

// The question editor over a question whose key was decided (docs/decisions/036): it says, before saving, what
// the save will be scored on.

const question = (key: AdminQuestion['key'], correct = 0): AdminQuestion => ({
  id: 11,
  revision_id: 110,
  text: { en: 'Capital of Nepal?', ne: '', html: null },
  hint: null,
  topic: '',
  image: null,
  options: ['Pokhara', 'Kathmandu', 'Lalitpur'].map((text, index) => ({
    id: index + 1,
    text: { en: text, ne: '', html: null },
    is_correct: index === correct,
    image: null,
  })),
  key,
  type: 'choice',
  marks: null,
  word_limit: null,
  model_answer: null,
  answer: null,
  decimals: null,
})

const decided = (
  action: 'change' | 'accept_several' | 'drop',
  ids: number[],
  drop_policy = null as null | 'exclude',
) => ({
  version: 1,
  action,
  correct_option_ids: ids,
  drop_policy,
  note: 'Decided.',
  decided_at: '2026-11-22T07:00:00Z',
})

function renderForm(value: AdminQuestion, language: 'en' | 'ne' = 'en') {
  renderWithProviders(<QuestionForm quizId={3} question={value} onSaved={vi.fn()} onCancel={vi.fn()} />, { language })
  return userEvent.setup()
}

describe('the question editor after a key decision', () => {
  it('says when and how the key was decided and that saving scores on the option marked, and saves that option', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }))
    const user = renderForm(question(decided('change', [2]), 1))
    expect(screen.getByRole('status')).toHaveTextContent(
      'The key of this question was decided on 22 Nov 2026: the key was changed to the option marked correct here. ' +
        'Saving writes a new version scored on the option marked correct here; attempts already taken keep the decision.',
    )
    expect(screen.getByRole('radio', { name: 'Option 2: correct answer' })).toBeChecked()
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    const body = JSON.parse((await waitFor(() => requestTo(fetch, '/api/admin/quizzes/3/questions/11/'))).body)
    expect(body.options.map((option: { is_correct: boolean }) => option.is_correct)).toEqual([false, true, false])
  })

  it('says in Nepali, with the Bikram Sambat date, that several accepted options do not carry over', () => {
    renderForm(question(decided('accept_several', [1, 2])), 'ne')
    expect(screen.getByRole('status')).toHaveTextContent(
      'यो प्रश्नको उत्तरकुञ्जी २०८३ मंसिर ६ मा निर्णय गरिएको थियो: विकल्पहरू १, २ सबैलाई सही मानियो।',
    )
    expect(screen.getByRole('status')).toHaveTextContent('नयाँ संस्करणमा यो निर्णय लागू हुँदैन।')
  })

  it('names the drop policy and says the decision does not carry over', () => {
    renderForm(question(decided('drop', [1], 'exclude')))
    expect(screen.getByRole('status')).toHaveTextContent(
      'the question was dropped and its marks taken out of the maximum. Saving writes',
    )
    expect(screen.getByRole('status')).toHaveTextContent('The new version does not carry this decision.')
  })

  it('shows no notice before any decision', () => {
    renderForm(question(null))
    expect(screen.queryByText(/was decided/)).toBeNull()
  })
})
