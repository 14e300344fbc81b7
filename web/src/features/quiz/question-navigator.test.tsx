import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../test/render'
import type { PaletteState } from './palette-state'
import { QuestionNavigator } from './question-navigator'

function Harness({
  total,
  answered = [],
  states = {},
  start = 0,
  onSelect,
}: {
  total: number
  answered?: number[]
  states?: Record<number, PaletteState>
  start?: number
  onSelect?: (index: number) => void
}) {
  const [current, setCurrent] = useState(start)
  return (
    <>
      <QuestionNavigator
        total={total}
        current={current}
        stateAt={(index: number) => states[index] ?? (answered.includes(index) ? 'answered' : 'not_answered')}
        onSelect={(index) => {
          onSelect?.(index)
          setCurrent(index)
        }}
      />
      <button type="button" onClick={() => setCurrent((value) => value + 1)}>
        external next
      </button>
    </>
  )
}

const numbers = () =>
  within(screen.getByRole('navigation', { name: 'Questions' }))
    .getAllByRole('button')
    .filter((button) => /^Question \d+/.test(button.getAttribute('aria-label') ?? ''))
    .map((button) => button.textContent?.replace('✓', ''))

describe('QuestionNavigator', () => {
  it('shows 10 numbers a page and pages with << and >>', async () => {
    const user = userEvent.setup()
    renderWithProviders(<Harness total={23} />)
    expect(numbers()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'])
    expect(screen.getByText('1–10 of 23')).toBeInTheDocument()
    const previous = screen.getByRole('button', { name: 'Previous questions' })
    const next = screen.getByRole('button', { name: 'Next questions' })
    expect(previous).toHaveTextContent('<<')
    expect(next).toHaveTextContent('>>')
    expect(previous).toBeDisabled()

    await user.click(next)
    expect(numbers()).toEqual(['11', '12', '13', '14', '15', '16', '17', '18', '19', '20'])
    await user.click(next)
    expect(numbers()).toEqual(['21', '22', '23'])
    expect(next).toBeDisabled()
    await user.click(previous)
    expect(numbers()[0]).toBe('11')
  })

  it('hides the page buttons when everything fits on one page', () => {
    renderWithProviders(<Harness total={7} />)
    expect(numbers()).toHaveLength(7)
    expect(screen.queryByRole('button', { name: 'Next questions' })).not.toBeInTheDocument()
  })

  it('says each of the five states in words, and keeps the state of the current question visible', () => {
    renderWithProviders(
      <Harness
        total={12}
        start={4}
        states={{ 0: 'not_visited', 1: 'not_answered', 2: 'answered', 3: 'marked', 4: 'answered_marked' }}
      />,
    )
    expect(screen.getByRole('button', { name: 'Question 1, not visited' })).toHaveClass('palette--not_visited')
    expect(screen.getByRole('button', { name: 'Question 2, not answered' })).toHaveClass('palette--not_answered')
    const answered = screen.getByRole('button', { name: 'Question 3, answered' })
    expect(answered).toHaveClass('palette--answered')
    expect(answered).toHaveTextContent('✓')
    expect(answered).not.toHaveAttribute('aria-current')
    expect(screen.getByRole('button', { name: 'Question 4, marked for review' })).toHaveClass('palette--marked')
    const current = screen.getByRole('button', { name: 'Question 5, answered and marked for review' })
    expect(current).toHaveAttribute('aria-current', 'step')
    expect(current).toHaveClass('navigator__number--current', 'palette--answered_marked')
    expect(current).toHaveTextContent('✓')
  })

  it('says the five states in Nepali', () => {
    renderWithProviders(
      <Harness
        total={5}
        states={{ 0: 'not_visited', 1: 'not_answered', 2: 'answered', 3: 'marked', 4: 'answered_marked' }}
      />,
      { language: 'ne' },
    )
    for (const name of [
      'प्रश्न १, नहेरिएको',
      'प्रश्न २, उत्तर नदिइएको',
      'प्रश्न ३, उत्तर दिइएको',
      'प्रश्न ४, पुनरावलोकनका लागि चिन्ह लगाइएको',
      'प्रश्न ५, उत्तर दिइएको र पुनरावलोकनका लागि चिन्ह लगाइएको',
    ]) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument()
    }
  })

  it('selects a question when its number is pressed', async () => {
    const user = userEvent.setup()
    const onSelect = vi.fn()
    renderWithProviders(<Harness total={12} onSelect={onSelect} />)
    await user.click(screen.getByRole('button', { name: 'Question 4, not answered' }))
    expect(onSelect).toHaveBeenCalledWith(3)
    expect(screen.getByRole('button', { name: 'Question 4, not answered' })).toHaveAttribute('aria-current', 'step')
  })

  it('follows the current question onto its page', async () => {
    const user = userEvent.setup()
    renderWithProviders(<Harness total={23} start={9} />)
    expect(numbers()[0]).toBe('1')
    await user.click(screen.getByRole('button', { name: 'external next' }))
    expect(numbers()[0]).toBe('11')
    expect(screen.getByRole('button', { name: 'Question 11, not answered' })).toHaveAttribute('aria-current', 'step')
  })

  it('opens on the page of a question resumed mid-quiz', () => {
    renderWithProviders(<Harness total={23} start={21} />)
    expect(numbers()).toEqual(['21', '22', '23'])
  })

  it('lets the learner browse other pages without moving the current question', async () => {
    const user = userEvent.setup()
    renderWithProviders(<Harness total={23} start={0} />)
    await user.click(screen.getByRole('button', { name: 'Next questions' }))
    expect(numbers()[0]).toBe('11')
    expect(screen.queryByRole('button', { current: 'step' })).not.toBeInTheDocument()
  })

  it('speaks Nepali', () => {
    renderWithProviders(<Harness total={12} answered={[0]} />, { language: 'ne' })
    expect(screen.getByRole('button', { name: 'प्रश्न १, उत्तर दिइएको' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'पछिल्ला प्रश्नहरू' })).toBeInTheDocument()
  })
})
