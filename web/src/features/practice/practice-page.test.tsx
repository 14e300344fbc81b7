import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { PracticeDeck } from '../../api/practice'
import { fakeNetwork, page, polyfillDialog, renderRoutes } from '../../test/page-test-utils'
import { Component as PracticePage } from './practice-page'

const card = (id: number, text: string, box = 1) => ({
  box,
  question: {
    id,
    text: { en: text, ne: '', html: null },
    topic: 'algebra',
    image: null,
    options: [
      { id: id * 10 + 1, text: { en: 'Two', ne: 'दुई', html: null }, image: null },
      { id: id * 10 + 2, text: { en: 'Three', ne: 'तीन', html: null }, image: null },
    ],
  },
})

const renderPractice = (decks: PracticeDeck[], answers: Record<string, unknown> = {}, language: 'en' | 'ne' = 'en') => {
  let call = 0
  const network = fakeNetwork({
    'GET /api/practice/': () => ({ body: decks[Math.min(call++, decks.length - 1)] }),
    ...Object.fromEntries(Object.entries(answers).map(([path, body]) => [`POST ${path}`, () => ({ body })])),
  })
  renderRoutes([page(PracticePage, '/practice')], { path: '/practice', language })
  return network
}

beforeAll(polyfillDialog)
afterEach(() => vi.unstubAllGlobals())

describe('practice page', () => {
  it('shows a card’s pictures lazily with their size, and an option’s picture enlarges beside the option', async () => {
    const user = userEvent.setup()
    const picture = (c: string) => ({ url: `/api/pictures/${c.repeat(64)}.webp`, width: 500, height: 250 })
    const base = card(1, 'Which shape?')
    const withPictures = {
      ...base,
      question: {
        ...base.question,
        image: { svg: null, picture: picture('e'), caption: { en: 'Shapes', ne: 'आकारहरू', html: null } },
        options: base.question.options.map((option, index) =>
          index === 0
            ? { ...option, image: { svg: null, picture: picture('f'), caption: { en: '', ne: '', html: null } } }
            : option,
        ),
      },
    }
    renderPractice([{ due: 1, total: 1, cards: [withPictures], next_due_at: null }], {}, 'ne')
    const own = await screen.findByRole('img', { name: 'आकारहरू' })
    expect(own).toHaveAttribute('width', '500')
    expect(own).toHaveAttribute('loading', 'lazy')
    expect(screen.getByRole('img', { name: 'विकल्प क को चित्र' })).toHaveAttribute('height', '250')
    await user.click(screen.getByRole('button', { name: /ठूलो गरी हेर्नुहोस्: विकल्प क को चित्र/ }))
    expect(screen.getByRole('dialog', { name: 'विकल्प क को चित्र' })).toBeInTheDocument()
  })

  it('shows one card, tells at once whether the choice was right with the correct option and hint, then the next', async () => {
    const user = userEvent.setup()
    const first: PracticeDeck = { due: 2, total: 2, cards: [card(1, '1 + 1?'), card(2, '1 + 2?')], next_due_at: null }
    const after: PracticeDeck = { due: 2, total: 2, cards: [card(2, '1 + 2?'), card(1, '1 + 1?')], next_due_at: null }
    const network = renderPractice([first, after], {
      '/api/practice/1/': {
        correct: false,
        correct_option_id: 11,
        hint: { en: 'Count your fingers.', ne: '', html: null },
        box: 1,
        due_at: '2026-11-22T08:00:00.000Z',
      },
    })
    expect(await screen.findByText('1 + 1?')).toBeInTheDocument()
    expect(screen.queryByText('1 + 2?')).not.toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('2 cards due')
    await user.click(screen.getByRole('button', { name: /Three/ }))
    expect(network.callsTo('POST', '/api/practice/1/')[0]!.body).toEqual({ option_id: 12 })
    expect(await screen.findByText(/Not quite/)).toBeInTheDocument()
    expect(screen.getByText('Count your fingers.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: /Two/ })).toHaveAccessibleName(/correct answer/)
    expect(screen.getByRole('button', { name: /Three/ })).toHaveAccessibleName(/your answer/)
    expect(screen.getByRole('button', { name: /Two/ })).toBeDisabled()
    // The chosen option is disabled now: focus moves on to the next step instead of the top of the page.
    expect(screen.getByRole('button', { name: 'Next card' })).toHaveFocus()
    await user.click(screen.getByRole('button', { name: 'Next card' }))
    expect(await screen.findByText('1 + 2?')).toBeInTheDocument()
  })

  it('says when a right answer brings the card back', async () => {
    const user = userEvent.setup()
    renderPractice([{ due: 1, total: 1, cards: [card(1, '1 + 1?')], next_due_at: null }], {
      '/api/practice/1/': {
        correct: true,
        correct_option_id: 11,
        hint: null,
        box: 2,
        due_at: '2026-11-23T08:00:00.000Z',
      },
    })
    await user.click(await screen.findByRole('button', { name: /Two/ }))
    expect(await screen.findByText(/Right! It comes back on 23 Nov 2026/)).toBeInTheDocument()
    expect(screen.queryByText('Hint')).not.toBeInTheDocument()
  })

  it('says when the next card is due when nothing is due, in Bikram Sambat in Nepali', async () => {
    renderPractice([{ due: 0, total: 3, cards: [], next_due_at: '2026-11-22T06:00:00.000Z' }], {}, 'ne')
    expect(await screen.findByText(/अर्को कार्ड २०८३ मंसिर ६, ११:४५ मा आउनेछ/)).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('० कार्ड')
  })

  it('explains an empty deck', async () => {
    renderPractice([{ due: 0, total: 0, cards: [], next_due_at: null }])
    expect(await screen.findByText(/No mistakes to practise yet/)).toBeInTheDocument()
  })
})
