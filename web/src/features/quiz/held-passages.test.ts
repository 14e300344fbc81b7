import { QueryClient } from '@tanstack/react-query'
import type { LearnerPassage, QuizQuestion } from '@quiz/contracts'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork } from '../../test/page-test-utils'
import { ATTEMPT_ID, makeQuestion } from '../../test/quiz-fixtures'
import { forgetAllAttempts, heldPassageIds, saveQuestions } from './attempt-store'
import { quizQueries } from './quiz.api'

// Decision 130: a paper fetched question by question sends each passage once. The device names the passages it
// holds; the server sends those by id alone, and the device joins them back.

const QUIZ_ID = 7
const passage = (id: number): LearnerPassage => ({ id, text: { en: `Passage ${id}`, ne: '', html: null }, image: null })
const under = (number: number, passageId: number): QuizQuestion => ({
  ...makeQuestion(number),
  passage: passage(passageId),
})
const fetchQuestion = (number: number) =>
  new QueryClient().fetchQuery(quizQueries.question(QUIZ_ID, ATTEMPT_ID, number))
const urlsOf = (fetchMock: ReturnType<typeof fakeNetwork>['fetchMock']) =>
  fetchMock.mock.calls.map(([input]) => {
    const url = new URL(String(input), 'http://localhost')
    return url.pathname + url.search
  })

beforeEach(() => forgetAllAttempts())
afterEach(() => vi.unstubAllGlobals())

describe('a question under a passage the device holds', () => {
  it('is asked for with the held passages, comes back by id alone and is given whole', async () => {
    await saveQuestions(ATTEMPT_ID, [under(1, 5)])
    expect(await heldPassageIds(ATTEMPT_ID)).toEqual([5])
    const { fetchMock } = fakeNetwork({
      [`GET /api/quizzes/${QUIZ_ID}/question/2/`]: () => ({ body: { ...under(2, 5), passage: { id: 5 } } }),
    })
    const question = await fetchQuestion(2)
    expect(question.passage).toEqual(passage(5))
    expect(urlsOf(fetchMock)).toEqual([`/api/quizzes/${QUIZ_ID}/question/2/?passages_held=5`])
  })

  it('is asked for plainly when the device holds no passage, and its passage is kept for the next', async () => {
    const { fetchMock } = fakeNetwork({
      [`GET /api/quizzes/${QUIZ_ID}/question/1/`]: () => ({ body: under(1, 5) }),
    })
    expect((await fetchQuestion(1)).passage).toEqual(passage(5))
    expect(urlsOf(fetchMock)).toEqual([`/api/quizzes/${QUIZ_ID}/question/1/`])
    expect(await heldPassageIds(ATTEMPT_ID)).toEqual([5])
  })

  it('is asked for again whole when a passage sent by id is not on the device after all', async () => {
    await saveQuestions(ATTEMPT_ID, [under(1, 5)])
    let asked = 0
    const { fetchMock } = fakeNetwork({
      // The first answer names passage 6, which the device never had; the second is whole.
      [`GET /api/quizzes/${QUIZ_ID}/question/2/`]: () => ({
        body: asked++ === 0 ? { ...under(2, 6), passage: { id: 6 } } : under(2, 6),
      }),
    })
    expect((await fetchQuestion(2)).passage).toEqual(passage(6))
    expect(urlsOf(fetchMock)).toEqual([
      `/api/quizzes/${QUIZ_ID}/question/2/?passages_held=5`,
      `/api/quizzes/${QUIZ_ID}/question/2/`,
    ])
  })
})
