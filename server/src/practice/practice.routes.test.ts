import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { insertRevision } from '../questions/question-revisions.repository'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openQuiz, requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

describe.each(dialects)('practice routes on %s', (dialect) => {
  const t = useTestApp(dialect)

  const call = requestsAs(t)
  const deck = (user: UserRow) => call(user, 'GET', '/api/practice/')
  const practise = (user: UserRow, questionId: number, optionId: unknown) =>
    call(user, 'POST', `/api/practice/${questionId}/`, { option_id: optionId })
  const submit = (user: UserRow, quizId: number, answers: Record<number, number | null>) =>
    call(user, 'POST', `/api/quizzes/${quizId}/submit/`, { answers })

  /** A learner who answered question 1 right, question 2 wrong and left question 3 unanswered. */
  async function learnerWithMistakes() {
    const user = await createUser(t.database)
    const quiz = await openQuiz(t, {}, { questionCount: 3 })
    const { questionIds: q, correctOptionIds: right, wrongOptionIds: wrong } = quiz
    const submitted = await submit(user, quiz.quiz.id, { [q[0]!]: right[0]!, [q[1]!]: wrong[1]! })
    return { user, ...quiz, attemptId: submitted.body.attempt_id as number }
  }

  it('puts wrong and unanswered questions in box 1, due at once, without correct answers or hints', async () => {
    const { user, questionIds } = await learnerWithMistakes()
    const response = await deck(user)
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ due: 2, total: 2, next_due_at: null })
    expect(response.body.cards.map((card: { question: { id: number } }) => card.question.id)).toEqual([
      questionIds[1],
      questionIds[2],
    ])
    expect(response.body.cards[0]).toEqual({
      box: 1,
      question: {
        id: questionIds[1],
        text: { en: 'Question 2', ne: 'प्रश्न 2', html: null },
        topic: 'general',
        image: null,
        type: 'choice',
        options: ['A', 'B', 'C', 'D'].map((text) => ({
          id: expect.any(Number),
          text: { en: text, ne: '', html: null },
          image: null,
        })),
      },
    })
    expect(response.raw).not.toContain('is_correct')
    expect(response.raw).not.toContain('hint')
  })

  it('moves a card up a box on each right answer, due after 1 and 3 days, and out of the deck from box 3', async () => {
    const { user, questionIds, correctOptionIds } = await learnerWithMistakes()
    const [q2, right] = [questionIds[1]!, correctOptionIds[1]!]
    const now = t.clock.now()

    const first = await practise(user, q2, right)
    expect(first.status).toBe(200)
    expect(first.body).toEqual({
      correct: true,
      correct_option_id: right,
      hint: { en: 'A hint', ne: '', html: null },
      box: 2,
      due_at: new Date(now + DAY).toISOString(),
    })
    expect((await deck(user)).body).toMatchObject({ due: 1, total: 2 })
    expect((await practise(user, q2, right)).status).toBe(404)

    t.clock.advance(DAY)
    expect((await practise(user, q2, right)).body).toMatchObject({
      box: 3,
      due_at: new Date(now + 4 * DAY).toISOString(),
    })
    t.clock.advance(3 * DAY - 1)
    expect((await practise(user, q2, right)).status).toBe(404)
    t.clock.advance(1)
    expect((await practise(user, q2, right)).body).toMatchObject({ correct: true, box: null, due_at: null })
    expect((await deck(user)).body).toMatchObject({ due: 1, total: 1 })
    expect((await practise(user, q2, right)).status).toBe(404)
  })

  it('sends a card back to box 1 on a wrong answer, due at once, and says when the next card is due', async () => {
    const { user, questionIds, correctOptionIds, wrongOptionIds } = await learnerWithMistakes()
    const [q2, q3] = [questionIds[1]!, questionIds[2]!]
    const now = t.clock.now()
    await practise(user, q2, correctOptionIds[1]!)
    await practise(user, q3, correctOptionIds[2]!)
    expect((await deck(user)).body).toEqual({
      due: 0,
      total: 2,
      cards: [],
      next_due_at: new Date(now + DAY).toISOString(),
    })
    t.clock.advance(DAY)
    const wrong = await practise(user, q2, wrongOptionIds[1]!)
    expect(wrong.body).toEqual({
      correct: false,
      correct_option_id: correctOptionIds[1],
      hint: { en: 'A hint', ne: '', html: null },
      box: 1,
      due_at: new Date(now + DAY).toISOString(),
    })
    expect((await deck(user)).body).toMatchObject({ due: 2, cards: [{ box: 1 }, { box: 2 }] })
  })

  it('answers 400 for an option of another question or of the wrong shape, 404 for a card not in the deck', async () => {
    const { user, questionIds, correctOptionIds } = await learnerWithMistakes()
    const other = await learnerWithMistakes()
    const foreign = await practise(user, questionIds[1]!, correctOptionIds[0]!)
    expect(foreign.status).toBe(400)
    expect(foreign.body.errors).toHaveProperty('option_id')
    expect((await practise(user, questionIds[1]!, '12')).status).toBe(400)
    expect((await practise(user, questionIds[1]!, null)).status).toBe(400)
    expect((await practise(user, questionIds[0]!, correctOptionIds[0]!)).status).toBe(404) // answered right
    expect((await practise(user, other.questionIds[1]!, other.correctOptionIds[1]!)).status).toBe(404) // not theirs
    expect((await practise(user, 99_999, 1)).status).toBe(404)
    expect((await deck(user)).body).toMatchObject({ due: 2, total: 2 })
  })

  it('shows the current version of an edited question, and drops deleted questions and quizzes from the deck', async () => {
    const { user, questionIds } = await learnerWithMistakes()
    const second = await learnerWithMistakesFor(user)
    expect((await deck(user)).body.total).toBe(4)

    const revisionId = await insertRevision(
      t.db,
      questionIds[1]!,
      {
        text: { en: 'Rewritten', ne: 'नयाँ' },
        hint: null,
        topic: 'algebra',
        image: null,
        options: [
          { text: { en: 'Yes', ne: '' }, is_correct: false, image: null },
          { text: { en: 'No', ne: '' }, is_correct: true, image: null },
        ],
      },
      t.clock.now(),
    )
    await t.db.updateTable('questions').set({ revision_id: revisionId }).where('id', '=', questionIds[1]!).execute()
    await t.db.updateTable('questions').set({ deleted_at: t.clock.now() }).where('id', '=', questionIds[2]!).execute()
    await t.db.updateTable('quizzes').set({ deleted_at: t.clock.now() }).where('id', '=', second.quizId).execute()

    const response = await deck(user)
    expect(response.body).toMatchObject({ due: 1, total: 1 })
    expect(response.body.cards[0].question).toMatchObject({
      id: questionIds[1],
      text: { en: 'Rewritten' },
      topic: 'algebra',
    })
    const [yes, no] = response.body.cards[0].question.options.map((option: { id: number }) => option.id)
    expect((await practise(user, questionIds[2]!, 1)).status).toBe(404)
    expect((await practise(user, second.questionId, second.rightOption)).status).toBe(404)
    expect((await practise(user, questionIds[1]!, yes)).body).toEqual({
      correct: false,
      correct_option_id: no,
      hint: null,
      box: 1,
      due_at: new Date(t.clock.now()).toISOString(),
    })
  })

  async function learnerWithMistakesFor(user: UserRow) {
    const quiz = await openQuiz(t, {}, { questionCount: 2 })
    await submit(user, quiz.quiz.id, {})
    return { quizId: quiz.quiz.id, questionId: quiz.questionIds[0]!, rightOption: quiz.correctOptionIds[0]! }
  }

  it('adds the mistakes of an attempt whose time ran out, and puts a card back in box 1 after another wrong attempt', async () => {
    const user = await createUser(t.database)
    const { quiz, questionIds, correctOptionIds, wrongOptionIds } = await openQuiz(
      t,
      { duration_minutes: 1 },
      { questionCount: 2 },
    )
    await call(user, 'GET', `/api/quizzes/${quiz.id}/`)
    await call(user, 'PUT', `/api/quizzes/${quiz.id}/answers/`, {
      answers: { [questionIds[0]!]: correctOptionIds[0]! },
    })
    t.clock.advance(MINUTE + 120_000 + 1)
    const settled = await deck(user)
    expect(settled.body).toMatchObject({ due: 1, total: 1, cards: [{ box: 1, question: { id: questionIds[1] } }] })

    await practise(user, questionIds[1]!, correctOptionIds[1]!)
    expect((await deck(user)).body).toMatchObject({ due: 0, total: 1 })
    // Past the hour in which a submit would be the expired attempt's late submission: this one is a new attempt.
    t.clock.advance(2 * HOUR)
    await submit(user, quiz.id, { [questionIds[0]!]: correctOptionIds[0]!, [questionIds[1]!]: wrongOptionIds[1]! })
    expect((await deck(user)).body).toMatchObject({ due: 1, total: 1, cards: [{ box: 1 }] })
  })

  it('never changes attempts, scores or ranks', async () => {
    const { user, questionIds, correctOptionIds, attemptId } = await learnerWithMistakes()
    const before = await call(user, 'GET', `/api/results/${attemptId}/`)
    const progressBefore = await call(user, 'GET', '/api/results/progress/')
    await practise(user, questionIds[1]!, correctOptionIds[1]!)
    await practise(user, questionIds[2]!, correctOptionIds[2]!)
    expect((await call(user, 'GET', `/api/results/${attemptId}/`)).body).toEqual(before.body)
    expect((await call(user, 'GET', '/api/results/progress/')).body).toEqual(progressBefore.body)
  })

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/practice/' })).statusCode).toBe(401)
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/practice/1/', payload: { option_id: 1 } })).statusCode,
    ).toBe(401)
  })
})
