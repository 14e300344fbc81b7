import type { QuizQuestion, SubmitResult } from '@quiz/contracts'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeAll, describe, expect, it } from 'vitest'
import { fakeNetwork, page, polyfillDialog, renderRoutes } from '../../../test/page-test-utils'
import { ATTEMPT_ID, QUIZ_ID, TOTAL, makeQuestion, makeSession } from '../../../test/quiz-fixtures'
import { Component as QuizPage } from '../quiz-page'

const result: SubmitResult = {
  attempt_id: ATTEMPT_ID,
  score: 0,
  correct: 0,
  incorrect: 0,
  unanswered: TOTAL - 1,
  total_questions: TOTAL - 1,
  completed_timestamp: '2026-11-22T07:10:00.000Z',
  late: false,
  ranked: false,
  max_score: TOTAL - 1,
  sections: [],
}

const written = (number: number): QuizQuestion => ({
  ...makeQuestion(number),
  type: 'written',
  text: { en: 'Explain the role of the Public Service Commission.', ne: 'लोक सेवा आयोगको भूमिका।', html: null },
  image: null,
  options: [],
  marks: 10,
  word_limit: 100,
})

describe('the exam screen with a written question', () => {
  beforeAll(polyfillDialog)

  it('starts from the answer saved on another device: its text, word count and pages', async () => {
    const kept = {
      id: 9,
      number: 1,
      url: '/api/written-pages/9/?expires=1&signature=s',
      phone_url: '/api/written-pages/9/?expires=1&signature=s&size=phone',
      width: 8,
      height: 9,
    }
    const net = fakeNetwork({
      [`GET /api/quizzes/${QUIZ_ID}/`]: () => ({
        body: makeSession({
          written: { '101': { text: 'टाइप गरेको उत्तर typed on the phone', word_count: 7, pages: [kept] } },
        }),
      }),
      ...Object.fromEntries(
        Array.from({ length: TOTAL }, (_, index) => [
          `GET /api/quizzes/${QUIZ_ID}/question/${index + 1}/`,
          () => ({ body: index === 0 ? written(1) : makeQuestion(index + 1) }),
        ]),
      ),
    })
    renderRoutes([page(QuizPage, '/quiz/:quizId')], { path: `/quiz/${QUIZ_ID}` })
    const box = await screen.findByRole('textbox', { name: 'Type your answer (Nepali or English)' })
    expect(box).toHaveValue('टाइप गरेको उत्तर typed on the phone')
    expect(screen.getByText('7 of 100 words')).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Photo of page 1 of your answer' })).toHaveAttribute('src', kept.phone_url)
    expect(screen.getByRole('button', { name: 'Question 1, answered' })).toBeInTheDocument()
    // Already on the server: nothing is sent again.
    expect(net.callsTo('PUT', `/api/attempts/${ATTEMPT_ID}/written/101/text/`)).toEqual([])
  })

  it('counts it answered once it has text, and saves the text before the hand-in', async () => {
    const order: string[] = []
    const net = fakeNetwork({
      [`GET /api/quizzes/${QUIZ_ID}/`]: () => ({ body: makeSession() }),
      [`PUT /api/quizzes/${QUIZ_ID}/answers/`]: () => ({ body: { saved: 0 } }),
      ...Object.fromEntries(
        Array.from({ length: TOTAL }, (_, index) => [
          `GET /api/quizzes/${QUIZ_ID}/question/${index + 1}/`,
          () => ({ body: index === 0 ? written(1) : makeQuestion(index + 1) }),
        ]),
      ),
      [`PUT /api/attempts/${ATTEMPT_ID}/written/101/text/`]: () => {
        order.push('text')
        return { body: { word_count: 3 } }
      },
      [`POST /api/quizzes/${QUIZ_ID}/submit/`]: () => {
        order.push('submit')
        return { body: result }
      },
    })
    const user = userEvent.setup()
    renderRoutes([page(QuizPage, '/quiz/:quizId')], { path: `/quiz/${QUIZ_ID}` })
    const box = await screen.findByRole('textbox', { name: 'Type your answer (Nepali or English)' })
    expect(screen.queryByRole('button', { name: 'Clear Response' })).not.toBeInTheDocument()
    await user.type(box, 'It recruits officers')
    expect(screen.getByRole('button', { name: 'Question 1, answered' })).toBeInTheDocument()

    // Handed in at once, before the text's pause is over: the text goes first.
    await user.click(screen.getByRole('button', { name: 'Submit Quiz' }))
    const confirm = screen.getByRole('dialog', { name: 'Submit the quiz?' })
    expect(within(confirm).getByText(`You have answered 1 of ${TOTAL} questions.`)).toBeInTheDocument()
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }))
    const score = await screen.findByRole('dialog', { name: 'Quiz submitted' })
    expect(score).toHaveTextContent('Your written answers will be marked by your teachers')
    await waitFor(() => expect(order).toEqual(['text', 'submit']))
    expect(net.callsTo('PUT', `/api/attempts/${ATTEMPT_ID}/written/101/text/`).at(-1)!.body).toEqual({
      text: 'It recruits officers',
    })
  })
})
