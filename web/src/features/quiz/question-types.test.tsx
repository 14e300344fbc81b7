import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { QuizQuestion } from '@quiz/contracts'
import { makeQuestion } from '../../test/quiz-fixtures'
import { renderWithProviders } from '../../test/render'
import { forgetShownPassages } from './passage-view'
import { QuestionView, type TypedAnswer } from './question-view'

const multiple: QuizQuestion = { ...makeQuestion(12), type: 'multiple' }
const numeric: QuizQuestion = { ...makeQuestion(13), type: 'numeric', options: [], decimals: 2 }
const passage = {
  id: 7,
  text: { en: 'The river rises in the hills and runs south.', ne: 'नदी पहाडबाट निस्की दक्षिण बग्छ।', html: null },
  image: null,
}

/** The exam screen's part that keeps an answer: what QuestionView reports is what it is shown next. */
function Answering({ question, onAnswer }: { question: QuizQuestion; onAnswer: (answer: TypedAnswer) => void }) {
  const [answer, setAnswer] = useState<TypedAnswer>(null)
  return (
    <QuestionView
      question={question}
      total={100}
      selectedOptionId={null}
      onSelect={() => undefined}
      answer={answer}
      onAnswer={(next) => {
        setAnswer(next)
        onAnswer(next)
      }}
    />
  )
}

describe('a question with several right options', () => {
  it('is a group named by its number, its options checkboxes named by the question, saved as the ticked ids', async () => {
    const user = userEvent.setup()
    const onAnswer = vi.fn()
    renderWithProviders(<Answering question={multiple} onAnswer={onAnswer} />)
    expect(screen.getByRole('group', { name: 'Question 12 of 100' })).toBeInTheDocument()
    const options = screen.getByRole('group', { name: 'What is question 12?' })
    expect(options).toHaveAccessibleDescription('Choose one or more')
    const boxes = within(options).getAllByRole('checkbox')
    expect(boxes).toHaveLength(4)

    await user.click(boxes[2]!)
    await user.click(boxes[0]!)
    // In the options' order, whatever the order of the taps.
    expect(onAnswer).toHaveBeenLastCalledWith([multiple.options[0]!.id, multiple.options[2]!.id])
    expect(boxes[0]).toBeChecked()
    expect(boxes[2]).toBeChecked()

    await user.click(boxes[0]!)
    await user.click(boxes[2]!)
    expect(onAnswer).toHaveBeenLastCalledWith(null)
  })

  it('says "Choose one or more" in Nepali', () => {
    renderWithProviders(<Answering question={multiple} onAnswer={() => undefined} />, { language: 'ne' })
    expect(screen.getByText('एक वा बढी विकल्प छान्नुहोस्')).toBeInTheDocument()
    expect(screen.getAllByRole('checkbox')).toHaveLength(4)
  })

  it('shows a saved set ticked (after Next/Previous or a reload)', () => {
    const ids = [multiple.options[1]!.id, multiple.options[3]!.id]
    renderWithProviders(
      <QuestionView question={multiple} total={100} selectedOptionId={null} onSelect={() => undefined} answer={ids} />,
    )
    const boxes = screen.getAllByRole('checkbox')
    expect(boxes.map((box) => (box as HTMLInputElement).checked)).toEqual([false, true, false, true])
  })
})

describe('a numeric question', () => {
  it('has one decimal field; Latin and Nepali digits are saved as typed and shown as they will be marked', async () => {
    const user = userEvent.setup()
    const onAnswer = vi.fn()
    renderWithProviders(<Answering question={numeric} onAnswer={onAnswer} />)
    const field = screen.getByRole('textbox', { name: 'What is question 13?' })
    expect(field).toHaveAttribute('inputmode', 'decimal')

    await user.type(field, '11.50')
    expect(onAnswer).toHaveBeenLastCalledWith('11.50')
    expect(screen.getByText('Marked as: 11.5')).toBeInTheDocument()

    await user.clear(field)
    expect(onAnswer).toHaveBeenLastCalledWith(null)
    await user.type(field, '१२.५')
    expect(onAnswer).toHaveBeenLastCalledWith('१२.५')
    expect(screen.getByText('Marked as: 12.5')).toBeInTheDocument()
    expect(field).not.toHaveAttribute('aria-invalid')
  })

  it('refuses letters and too many decimals as typed, with a sentence under the field, and keeps the last good answer', async () => {
    const user = userEvent.setup()
    const onAnswer = vi.fn()
    renderWithProviders(<Answering question={numeric} onAnswer={onAnswer} />)
    const field = screen.getByRole('textbox', { name: 'What is question 13?' })

    await user.type(field, '3.14')
    expect(onAnswer).toHaveBeenLastCalledWith('3.14')
    await user.type(field, '1')
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(field).toHaveAccessibleDescription(/Too many digits after the decimal point\./)
    expect(onAnswer).toHaveBeenLastCalledWith('3.14')

    await user.clear(field)
    await user.type(field, '12a')
    expect(field).toHaveAccessibleDescription(/Type a number: an optional sign, digits and at most one decimal point\./)
    expect(onAnswer).toHaveBeenLastCalledWith('12')
  })

  it('tells the refusal and the marked number in Nepali', async () => {
    const user = userEvent.setup()
    renderWithProviders(<Answering question={numeric} onAnswer={() => undefined} />, { language: 'ne' })
    const field = screen.getByRole('textbox')
    await user.type(field, '7.0')
    expect(screen.getByText('यसरी जाँचिन्छ: ७')).toBeInTheDocument()
    await user.type(field, '01')
    expect(screen.getByText('दशमलवपछि धेरै अङ्क भए।')).toBeInTheDocument()
  })

  it('shows a saved answer in the field', () => {
    renderWithProviders(
      <QuestionView question={numeric} total={100} selectedOptionId={null} onSelect={() => undefined} answer="-2.5" />,
    )
    expect(screen.getByRole('textbox')).toHaveValue('-2.5')
  })
})

describe('a question under a passage', () => {
  beforeEach(forgetShownPassages)

  it('shows the passage open the first time and folded behind "Read the passage" after', async () => {
    const user = userEvent.setup()
    const first = { ...makeQuestion(1), image: null, passage }
    const view = renderWithProviders(
      <QuestionView question={first} total={100} selectedOptionId={null} onSelect={() => undefined} />,
    )
    expect(screen.getByRole('region', { name: 'Passage' })).toHaveTextContent('The river rises')
    expect(screen.getByRole('button', { name: 'Fold the passage' })).toHaveAttribute('aria-expanded', 'true')
    // The question and its options are there with it.
    expect(screen.getByRole('radiogroup', { name: 'What is question 1?' })).toBeInTheDocument()
    view.unmount()

    renderWithProviders(
      <QuestionView
        question={{ ...makeQuestion(2), passage }}
        total={100}
        selectedOptionId={null}
        onSelect={() => undefined}
      />,
    )
    const read = screen.getByRole('button', { name: 'Read the passage' })
    expect(read).toHaveAttribute('aria-expanded', 'false')
    await user.click(read)
    expect(screen.getByRole('button', { name: 'Fold the passage' })).toHaveAttribute('aria-expanded', 'true')
  })
})
