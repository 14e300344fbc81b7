import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { PracticeAnswerResult, PracticeCard, PracticeDeck } from '../../api/practice'
import { fakeNetwork, page, polyfillDialog, renderRoutes } from '../../test/page-test-utils'
import { Component as PracticePage } from './practice-page'

const text = (en: string, ne = '') => ({ en, ne, html: null })
const multipleCard: PracticeCard = {
  box: 1,
  question: {
    id: 5,
    type: 'multiple',
    text: text('Which are prime?', 'कुन अभाज्य हुन्?'),
    topic: '',
    image: null,
    options: [
      { id: 51, text: text('Two', 'दुई'), image: null },
      { id: 52, text: text('Four', 'चार'), image: null },
      { id: 53, text: text('Five', 'पाँच'), image: null },
    ],
  },
}
const numericCard = (decimals: number | null): PracticeCard => ({
  box: 2,
  question: {
    id: 6,
    type: 'numeric',
    text: text('Half of 23?', '२३ को आधा?'),
    topic: '',
    image: null,
    options: [],
    decimals,
  },
})
const result = (rest: Partial<PracticeAnswerResult>): PracticeAnswerResult => ({
  correct: false,
  correct_option_id: null,
  hint: null,
  box: 1,
  due_at: '2026-11-22T08:00:00.000Z',
  ...rest,
})

function renderPractice(card: PracticeCard, answer: PracticeAnswerResult, language: 'en' | 'ne' = 'en') {
  const deck: PracticeDeck = { due: 1, total: 1, cards: [card], next_due_at: null }
  const network = fakeNetwork({
    'GET /api/practice/': () => ({ body: deck }),
    [`POST /api/practice/${card.question.id}/`]: () => ({ body: answer }),
  })
  renderRoutes([page(PracticePage, '/practice')], { path: '/practice', language })
  return network
}

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

describe('practice of multiple and numeric cards', () => {
  it('ticks several options, sends their ids as answers, then shows the right set in words', async () => {
    const user = userEvent.setup()
    const network = renderPractice(
      multipleCard,
      result({ correct_option_id: 51, correct_option_ids: [51, 53], box: 1 }),
    )
    const group = await screen.findByRole('group', { name: 'Which are prime?' })
    expect(group).toHaveAccessibleDescription('Choose one or more')
    const check = screen.getByRole('button', { name: 'Check my answer' })
    expect(check).toBeDisabled()
    await user.click(within(group).getByRole('checkbox', { name: /Four/ }))
    await user.click(within(group).getByRole('checkbox', { name: /Two/ }))
    await user.click(check)
    // In the options' order, not the taps'.
    expect(network.callsTo('POST', '/api/practice/5/')[0]!.body).toEqual({ answers: { 5: [51, 52] } })
    expect(await screen.findByText(/Not quite/)).toBeInTheDocument()
    expect(screen.getByText('The right set:').parentElement).toHaveTextContent('The right set: A, C')
    expect(within(group).getByRole('checkbox', { name: /Two/ })).toHaveAccessibleName(/your answer.*correct answer/)
    expect(within(group).getByRole('checkbox', { name: /Four/ })).toHaveAccessibleName(/your answer$/)
    expect(within(group).getByRole('checkbox', { name: /Five/ })).toHaveAccessibleName(/correct answer$/)
    expect(within(group).getByRole('checkbox', { name: /Five/ })).toBeDisabled()
    expect(screen.queryByRole('button', { name: 'Check my answer' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Next card' })).toHaveFocus()
  })

  it('takes a number typed in Nepali digits, refuses letters as typed, and shows the accepted value ± tolerance', async () => {
    const user = userEvent.setup()
    const network = renderPractice(
      numericCard(1),
      result({ correct: true, answer: { value: 11.5, tolerance: 0.1 }, box: 3 }),
    )
    const field = await screen.findByRole('textbox', { name: 'Half of 23?' })
    const check = screen.getByRole('button', { name: 'Check my answer' })
    await user.type(field, '1a')
    expect(screen.getByText(/Type a number: an optional sign/)).toBeInTheDocument()
    expect(check).toBeDisabled()
    await user.clear(field)
    await user.type(field, '११.५')
    expect(screen.getByText('Marked as: 11.5')).toBeInTheDocument()
    await user.click(check)
    expect(network.callsTo('POST', '/api/practice/6/')[0]!.body).toEqual({ answers: { 6: '११.५' } })
    expect(await screen.findByText(/Right!/)).toBeInTheDocument()
    expect(screen.getByText('Accepted answer:').parentElement).toHaveTextContent('Accepted answer: 11.5 ± 0.1')
    expect(field).toBeDisabled()
  })

  it('shows an accepted range in Nepali with Devanagari digits', async () => {
    const user = userEvent.setup()
    renderPractice(numericCard(null), result({ answer: { min: 11, max: 12 } }), 'ne')
    const field = await screen.findByRole('textbox', { name: '२३ को आधा?' })
    await user.type(field, '13')
    await user.click(screen.getByRole('button', { name: 'मेरो उत्तर जाँच्नुहोस्' }))
    expect(await screen.findByText('स्वीकार्य उत्तर:')).toBeInTheDocument()
    expect(screen.getByText('स्वीकार्य उत्तर:').parentElement).toHaveTextContent('११ देखि १२ सम्मको कुनै पनि सङ्ख्या')
  })
})
