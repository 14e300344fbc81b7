import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { requestTo } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { QuestionForm } from './question-form'

// The question form's several-option and numeric types (WEB.md "Question types on the screens").

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

function renderForm(language: 'en' | 'ne' = 'en') {
  const onSaved = vi.fn()
  renderWithProviders(<QuestionForm quizId={null} question={null} onSaved={onSaved} onCancel={vi.fn()} />, {
    language,
  })
  return { onSaved, user: userEvent.setup() }
}

const accepts = () => document.querySelector('.admin-numeric__accepts')

describe('QuestionForm: several right options and numbers', () => {
  it('offers the four types and sends a multiple question with every ticked option right', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse(201, { id: 5 }))
    const { user, onSaved } = renderForm()
    const types = screen.getByRole('group', { name: 'Question type' })
    expect(
      within(types)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['One right option', 'Several right options', 'A number', 'Written answer'])
    await user.click(screen.getByRole('radio', { name: 'Several right options' }))
    expect(screen.getByText(/Tick every right option/)).toBeInTheDocument()
    const boxes = screen.getAllByRole('checkbox', { name: /correct answer/ }) as HTMLInputElement[]
    expect(boxes.map((box) => box.checked)).toEqual([true, false, false, false])
    await user.click(boxes[2]!)
    await user.type(screen.getByLabelText('Question (English)'), 'Which are prime?')
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    const body = JSON.parse(requestTo(fetch, '/api/admin/bank/questions/').body)
    expect(body.type).toBe('multiple')
    expect(body.options.map((option: { is_correct: boolean }) => option.is_correct)).toEqual([true, false, true, false])
  })

  it('keeps no right option when several were ticked and the type becomes one right option, and says so', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse(201, { id: 5 }))
    const { user } = renderForm()
    await user.click(screen.getByRole('radio', { name: 'Several right options' }))
    const boxes = screen.getAllByRole('checkbox', { name: /correct answer/ }) as HTMLInputElement[]
    await user.click(boxes[2]!)
    await user.click(screen.getByRole('radio', { name: 'One right option' }))
    const radios = screen.getAllByRole('radio', { name: /correct answer/ }) as HTMLInputElement[]
    expect(radios.map((radio) => radio.checked)).toEqual([false, false, false, false])
    expect(screen.getByRole('status')).toHaveTextContent('choose the one right option')
    await user.click(radios[2]!)
    await user.type(screen.getByLabelText('Question (English)'), 'Which is prime?')
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    await waitFor(() => expect(fetch).toHaveBeenCalled())
    const body = JSON.parse(requestTo(fetch, '/api/admin/bank/questions/').body)
    expect(body.type ?? 'choice').toBe('choice')
    expect(body.options.map((option: { is_correct: boolean }) => option.is_correct)).toEqual([
      false,
      false,
      true,
      false,
    ])
  })

  it('sends a numeric question with a tolerance or a range, previews what a learner may type, and shows refusals at their fields', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(400, {
        detail: 'Invalid input.',
        code: 'validation_error',
        errors: { 'answer.max': ["The range's min must not be above its max."] },
      }),
    )
    const { user } = renderForm()
    await user.click(screen.getByRole('radio', { name: 'A number' }))
    expect(screen.queryAllByRole('checkbox', { name: /correct answer/ })).toHaveLength(0)
    await user.type(screen.getByLabelText('Value'), '3.14')
    await user.clear(screen.getByLabelText('Tolerance (±)'))
    await user.type(screen.getByLabelText('Tolerance (±)'), '0.01')
    await user.type(screen.getByLabelText('Decimals allowed'), '2')
    expect(accepts()).toHaveTextContent('Accepted: from 3.13 to 3.15, both included. At most 2 decimals.')
    // Latin and Devanagari digits read as one number.
    expect(screen.getAllByText('reads as 3.14: right')).toHaveLength(2)
    // The key typed with one decimal too many is refused as typed, as the exam screen refuses it.
    expect(screen.getByText('refused as typed: too many decimals')).toBeInTheDocument()

    await user.click(screen.getByRole('radio', { name: 'A range' }))
    await user.type(screen.getByLabelText('From'), '5')
    await user.type(screen.getByLabelText('To'), '1')
    expect(screen.getByText('Type the value (or the range) to see what is accepted.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Save Question' }))
    const to = screen.getByLabelText('To')
    await waitFor(() => expect(to).toHaveAttribute('aria-invalid', 'true'))
    expect(to).toHaveAccessibleDescription("The range's min must not be above its max.")
    const body = JSON.parse(requestTo(fetch, '/api/admin/bank/questions/').body)
    expect(body).toMatchObject({ type: 'numeric', options: [], answer: { min: 5, max: 1 }, decimals: 2 })
  })

  it('says the types and the preview in Nepali', async () => {
    const { user } = renderForm('ne')
    expect(screen.getByRole('radio', { name: 'एकभन्दा बढी सही विकल्प' })).toBeInTheDocument()
    await user.click(screen.getByRole('radio', { name: 'सङ्ख्या' }))
    await user.type(screen.getByLabelText('मान'), '11')
    // Numbers in Nepali sentences are in Devanagari digits.
    expect(accepts()).toHaveTextContent('स्वीकार्य: ठ्याक्कै ११। जतिसुकै दशमलव।')
    expect(screen.getByText('११')).toBeInTheDocument()
  })
})
