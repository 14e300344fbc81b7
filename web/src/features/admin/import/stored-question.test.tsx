import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../../test/render'
import type { ImportRow } from './import.api'
import { StoredQuestion } from './stored-question'

const picture = (c: string) => ({ url: `/api/pictures/${c.repeat(64)}.webp`, width: 400, height: 300 })

const row = {
  row: 5,
  status: 'ok',
  messages: [],
  converted: [],
  duplicate_of: null,
  question: {
    text: { en: 'Which district is shaded?', ne: '' },
    hint: null,
    topic: '',
    image: { svg: null, picture: picture('1'), caption: { en: '', ne: '' } },
    options: ['Kaski', 'Lalitpur'].map((text, index) => ({
      text: { en: text, ne: '' },
      is_correct: index === 0,
      image: index === 1 ? { svg: null, picture: picture('2'), caption: { en: '', ne: '' } } : null,
    })),
    tags: [],
    difficulty: null,
    source: null,
  },
} as unknown as ImportRow

describe('a dry run row', () => {
  it('shows the pictures an import brought in, with their size, lazily', () => {
    renderWithProviders(<StoredQuestion row={row} />)
    const own = screen.getByRole('img', { name: 'Picture of the question' })
    expect(own).toHaveAttribute('src', picture('1').url)
    expect(own).toHaveAttribute('width', '400')
    expect(own).toHaveAttribute('loading', 'lazy')
    expect(screen.getByRole('img', { name: 'Picture for option B' })).toHaveAttribute('height', '300')
    expect(screen.getByRole('button', { name: /Picture for option B.*open full screen/ })).toBeInTheDocument()
  })

  it("shows a row's type, a numeric answer and the passage it comes under", () => {
    const numeric = {
      ...row,
      passage: {
        text: { en: 'Read: a train runs 60 km in an hour.', ne: '' },
        image: { svg: null, picture: picture('3'), caption: { en: '', ne: '' } },
      },
      question: { ...row.question, image: null, options: [], type: 'numeric', answer: { min: 1, max: 5 }, decimals: 0 },
    } as unknown as ImportRow
    renderWithProviders(<StoredQuestion row={numeric} />)
    expect(screen.getByText('Read: a train runs 60 km in an hour.')).toBeInTheDocument()
    expect(screen.getByText('A number')).toBeInTheDocument()
    expect(screen.getByText(/Right answer: from 1 to 5\./)).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Picture of the passage' })).toHaveAttribute('src', picture('3').url)
  })
})
