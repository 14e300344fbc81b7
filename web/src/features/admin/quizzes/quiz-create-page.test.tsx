import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { requestTo } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { EXAMPLE_QUIZ_JSON } from './example-quiz'
import { Component as QuizCreatePage } from './quiz-create-page'

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
}

async function submitText(text: string) {
  const user = userEvent.setup()
  renderWithProviders(<QuizCreatePage />)
  const textarea = screen.getByLabelText('Quiz JSON')
  await user.click(textarea)
  await user.paste(text)
  await user.click(screen.getByRole('button', { name: 'Create Quiz' }))
  return user
}

describe('Create quiz from JSON', () => {
  it('says so when the text is not JSON, without calling the server', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch')
    await submitText('{"title": ')
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid JSON format. Please check your data.')
    expect(fetch).not.toHaveBeenCalled()
  })

  it('lists every error of a refused quiz by its path', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(400, {
        detail: 'Invalid input.',
        code: 'validation_error',
        errors: {
          'questions.0.options': ['Exactly one option must be correct.', 'At least 2 options.'],
          duration_minutes: ['Too big.'],
        },
      }),
    )
    await submitText('{"title": {"en": "T"}, "duration_minutes": 5000, "questions": []}')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Failed to create quiz. See the errors below.')
    const items = Array.from(alert.querySelectorAll('li'), (item) => item.textContent)
    expect(items).toEqual([
      'questions.0.options: Exactly one option must be correct.',
      'questions.0.options: At least 2 options.',
      'duration_minutes: Too big.',
    ])
  })

  it('shows the new quiz id and a link to edit it', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse(201, { quiz_id: 42 }))
    await submitText(EXAMPLE_QUIZ_JSON)
    expect(await screen.findByRole('status')).toHaveTextContent('Quiz created successfully! Quiz ID: 42')
    expect(screen.getByRole('link', { name: 'Edit this quiz' })).toHaveAttribute('href', '/admin/quiz/42/edit')
    expect(JSON.parse(requestTo(fetch, '/api/quizzes/create-from-json/').body)).toEqual(JSON.parse(EXAMPLE_QUIZ_JSON))
  })

  it('requires the textarea', () => {
    renderWithProviders(<QuizCreatePage />)
    expect(screen.getByLabelText('Quiz JSON')).toBeRequired()
  })
})
