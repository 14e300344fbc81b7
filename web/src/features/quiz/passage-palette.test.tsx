import type { QuizQuestion } from '@quiz/contracts'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { QuestionNavigator } from './question-navigator'
import { passageNumbers } from './use-passage-numbers'

const question = (number: number, passageId: number | null) =>
  ({
    id: 100 + number,
    number,
    passage: passageId === null ? null : { id: passageId, text: { en: '', ne: '', html: null }, image: null },
  }) as QuizQuestion

describe('passageNumbers', () => {
  it('numbers passages by first appearance, lone and not yet fetched questions having none', () => {
    const passageOf = passageNumbers([question(1, null), question(2, 9), question(3, 9), undefined, question(5, 4)])
    expect([1, 2, 3, 4, 5, 6].map(passageOf)).toEqual([null, 1, 1, null, 2, null])
  })
})

describe('the palette groups a passage’s questions', () => {
  // Questions 3–5 under passage 1, 7–8 under passage 2 (indexes from 0).
  const passageAt = (index: number) => ({ 2: 1, 3: 1, 4: 1, 6: 2, 7: 2 })[index] ?? null

  it('puts each passage’s numbers in a group named after it, the lone ones outside', async () => {
    const user = userEvent.setup()
    const onSelect = vi.fn()
    renderWithProviders(
      <QuestionNavigator
        total={9}
        current={0}
        stateAt={(index) => (index === 3 ? 'answered' : 'not_visited')}
        onSelect={onSelect}
        passageAt={passageAt}
      />,
    )
    const first = screen.getByRole('group', { name: 'Passage 1' })
    expect(
      within(first)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Question 3, not visited', 'Question 4, answered', 'Question 5, not visited'])
    const second = screen.getByRole('group', { name: 'Passage 2' })
    expect(
      within(second)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['7', '8'])
    const all = within(screen.getByRole('navigation', { name: 'Questions' })).getAllByRole('button')
    expect(all.map((button) => button.textContent?.replace('✓', ''))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
    ])
    await user.click(within(first).getByRole('button', { name: 'Question 4, answered' }))
    expect(onSelect).toHaveBeenCalledWith(3)
  })

  it('names the passage in Nepali with Devanagari digits', () => {
    renderWithProviders(
      <QuestionNavigator
        total={9}
        current={0}
        stateAt={() => 'not_visited'}
        onSelect={() => {}}
        passageAt={passageAt}
      />,
      { language: 'ne' },
    )
    expect(screen.getByRole('group', { name: 'अनुच्छेद २' })).toBeInTheDocument()
  })
})
