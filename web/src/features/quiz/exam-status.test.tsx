import userEvent from '@testing-library/user-event'
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

  it('says the time left when "Time left" is pressed, again when pressed again', async () => {
    const { getByRole, container } = renderWithProviders(<ExamBar secondsLeft={725} saveStatus="saved" pending={0} />)
    const said = () => container.querySelector('[data-asked]')?.textContent ?? ''
    expect(container.querySelectorAll('[role="status"]')[1]!.textContent).toBe('')
    await userEvent.click(getByRole('button', { name: 'Time left' }))
    expect(said()).toBe('12 minutes 5 seconds left.')
    const first = container.querySelector('[data-asked] span')
    await userEvent.click(getByRole('button', { name: 'Time left' }))
    expect(said()).toBe('12 minutes 5 seconds left.')
    expect(container.querySelector('[data-asked] span')).not.toBe(first)
  })

  it('says it in Nepali with Devanagari digits', async () => {
    const { getByRole, container } = renderWithProviders(<ExamBar secondsLeft={61} saveStatus="saved" pending={0} />, {
      language: 'ne',
    })
    await userEvent.click(getByRole('button', { name: 'बाँकी समय' }))
    expect(container.querySelector('[data-asked]')!.textContent).toBe('१ मिनेट १ सेकेन्ड बाँकी छ।')
  })
})
