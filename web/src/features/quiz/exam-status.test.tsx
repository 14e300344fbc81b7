import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { ExamBar } from './exam-status'

const spoken = (secondsLeft: number) => {
  const { container, unmount } = renderWithProviders(
    <ExamBar secondsLeft={secondsLeft} saveStatus="saved" pending={0} />,
  )
  const text = container.querySelector('[aria-live="polite"]')!.textContent
  unmount()
  return text
}

describe('the exam timer for a screen reader', () => {
  it('speaks at 10, 5 and 1 minutes left, and says nothing before', () => {
    expect(spoken(601)).toBe('')
    expect(spoken(600)).toBe('Ten minutes or less left.')
    expect(spoken(301)).toBe('Ten minutes or less left.')
    expect(spoken(300)).toBe('Five minutes or less left.')
    expect(spoken(60)).toBe('One minute or less left.')
  })

  it('is not a live region itself, so the seconds are never read out as they pass', () => {
    const { getByRole } = renderWithProviders(<ExamBar secondsLeft={1234} saveStatus="saved" pending={0} />)
    expect(getByRole('timer')).not.toHaveAttribute('aria-live')
    expect(getByRole('timer').closest('[aria-live]')).toBeNull()
  })
})
