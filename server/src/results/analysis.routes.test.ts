import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { insertQuestion } from '../questions/question-revisions.repository'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openQuiz, requestsAs, storedOptionIds } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

const MINUTE = 60_000

describe.each(dialects)('report analysis and progress on %s', (dialect) => {
  const t = useTestApp(dialect)

  const call = requestsAs(t)
  const submit = (user: UserRow, quizId: number, body: object) =>
    call(user, 'POST', `/api/quizzes/${quizId}/submit/`, body)
  const report = async (user: UserRow, attemptId: number) =>
    (await call(user, 'GET', `/api/results/${attemptId}/`)).body

  /** Four questions: algebra, no topic, algebra, geometry; the first option of each is right. */
  async function topicQuiz(title = 'Topics') {
    const { quiz } = await openQuiz(t, { title_en: title }, { questionCount: 0 })
    const questions: { id: number; right: number; wrong: number }[] = []
    for (const topic of ['algebra', '', 'algebra', 'geometry']) {
      const id = await insertQuestion(
        t.db,
        quiz.id,
        {
          text: { en: `About ${topic || 'nothing'}`, ne: '' },
          hint: null,
          topic,
          image: null,
          options: [
            { text: { en: 'Right', ne: '' }, is_correct: true, image: null },
            { text: { en: 'Wrong', ne: '' }, is_correct: false, image: null },
          ],
        },
        t.clock.now(),
      )
      const [right, wrong] = await storedOptionIds(t.db, id)
      questions.push({ id, right: right!, wrong: wrong! })
    }
    /** Answers: 'r' right, 'w' wrong, '-' unanswered, one letter per question. */
    const answers = (pattern: string) =>
      Object.fromEntries(
        questions.map((q, i) => [q.id, pattern[i] === 'r' ? q.right : pattern[i] === 'w' ? q.wrong : null]),
      )
    return { quiz, questions, answers }
  }

  it('ranks first attempts with ties, percentile, average, highest, topics in order of appearance and negative marks', async () => {
    const { quiz, answers } = await topicQuiz()
    const [a, b, c, d] = [
      await createUser(t.database),
      await createUser(t.database),
      await createUser(t.database),
      await createUser(t.database),
    ]
    const idOf = async (user: UserRow, pattern: string) =>
      (await submit(user, quiz.id, { answers: answers(pattern) })).body.attempt_id as number
    const aId = await idOf(a, 'rrrr') // 4
    const bId = await idOf(b, 'rwrr') // 2.8
    const cId = await idOf(c, 'rrrw') // 2.8, a tie with b
    const dId = await idOf(d, '----') // 0

    const bReport = await report(b, bId)
    expect(bReport.analysis).toEqual({
      topics: [
        { topic: 'algebra', correct: 2, incorrect: 0, unanswered: 0, score: 2 },
        { topic: null, correct: 0, incorrect: 1, unanswered: 0, score: -0.2 },
        { topic: 'geometry', correct: 1, incorrect: 0, unanswered: 0, score: 1 },
      ],
      negative_marks: 0.2,
      participants: 4,
      rank: 2,
      percentile: 33.33,
      average_score: 2.4,
      highest_score: 4,
    })
    expect((await report(c, cId)).analysis).toMatchObject({ rank: 2, percentile: 33.33 })
    expect((await report(a, aId)).analysis).toMatchObject({ rank: 1, percentile: 100 })
    expect((await report(d, dId)).analysis).toMatchObject({
      rank: 4,
      percentile: 0,
      negative_marks: 0,
      topics: [
        { topic: 'algebra', correct: 0, incorrect: 0, unanswered: 2, score: 0 },
        { topic: null, correct: 0, incorrect: 0, unanswered: 1, score: 0 },
        { topic: 'geometry', correct: 0, incorrect: 0, unanswered: 1, score: 0 },
      ],
    })

    // d's second attempt is ranked against the others' first attempts; d's own first is not among "others".
    t.clock.advance(MINUTE)
    const dSecond = await idOf(d, 'rrrr')
    expect((await report(d, dSecond)).analysis).toMatchObject({
      participants: 4,
      rank: 1,
      percentile: 66.67,
      average_score: 2.4,
      highest_score: 4,
    })
    // A second attempt changes nobody else's standing.
    expect((await report(b, bId)).analysis).toMatchObject({ participants: 4, rank: 2, percentile: 33.33 })

    // Live: a new learner finishing above b moves b down.
    const e = await createUser(t.database)
    await idOf(e, 'rrrr')
    expect((await report(b, bId)).analysis).toMatchObject({
      participants: 5,
      rank: 3,
      percentile: 25,
      average_score: 2.72,
      highest_score: 4,
    })
  })

  it('gives a lone participant rank 1 of 1 and percentile 100, and a negative average exactly', async () => {
    const { quiz, answers } = await topicQuiz()
    const user = await createUser(t.database)
    const { attempt_id } = (await submit(user, quiz.id, { answers: answers('wwwr') })).body
    expect((await report(user, attempt_id)).analysis).toMatchObject({
      participants: 1,
      rank: 1,
      percentile: 100,
      average_score: 0.4,
      highest_score: 0.4,
      negative_marks: 0.6,
    })
  })

  it('ignores attempts still in progress', async () => {
    const { quiz, answers } = await topicQuiz()
    const [a, b] = [await createUser(t.database), await createUser(t.database)]
    await call(b, 'GET', `/api/quizzes/${quiz.id}/`)
    const { attempt_id } = (await submit(a, quiz.id, { answers: answers('rrrr') })).body
    expect((await report(a, attempt_id)).analysis).toMatchObject({ participants: 1, rank: 1, percentile: 100 })
  })

  it('shows per answer whether it was marked and the seconds spent on it', async () => {
    const { quiz, questions, answers } = await topicQuiz()
    const user = await createUser(t.database)
    await call(user, 'GET', `/api/quizzes/${quiz.id}/`)
    t.clock.advance(MINUTE)
    const [q1, q2] = questions
    const { attempt_id } = (
      await submit(user, quiz.id, {
        answers: answers('rw--'),
        marked: { [q2!.id]: true },
        visited: [q1!.id, q2!.id],
        time_spent: { [q1!.id]: 30, [q2!.id]: 12 },
      })
    ).body
    expect((await report(user, attempt_id)).answers).toEqual([
      {
        question: q1!.id,
        selected_option: q1!.right,
        marks: 1,
        marked: false,
        time_spent_seconds: 30,
        flag: null,
        regrade: null,
      },
      {
        question: q2!.id,
        selected_option: q2!.wrong,
        marks: -0.2,
        marked: true,
        time_spent_seconds: 12,
        flag: null,
        regrade: null,
      },
      {
        question: questions[2]!.id,
        selected_option: null,
        marks: 0,
        marked: false,
        time_spent_seconds: 0,
        flag: null,
        regrade: null,
      },
      {
        question: questions[3]!.id,
        selected_option: null,
        marks: 0,
        marked: false,
        time_spent_seconds: 0,
        flag: null,
        regrade: null,
      },
    ])
  })

  describe('GET /api/results/progress/', () => {
    it('lists every finished attempt oldest first, and totals per topic sorted by name with null last', async () => {
      const user = await createUser(t.database)
      const other = await createUser(t.database)
      const first = await topicQuiz('First')
      const second = await openQuiz(t, { title_en: 'Second' }, { questionCount: 2 })
      const a1 = (await submit(user, first.quiz.id, { answers: first.answers('rw-r') })).body
      t.clock.advance(MINUTE)
      const b1 = (
        await submit(user, second.quiz.id, { answers: { [second.questionIds[0]!]: second.correctOptionIds[0]! } })
      ).body
      t.clock.advance(MINUTE)
      const a2 = (await submit(user, first.quiz.id, { answers: first.answers('wrrw') })).body
      await submit(other, first.quiz.id, { answers: first.answers('rrrr') })
      await call(user, 'GET', `/api/quizzes/${second.quiz.id}/`)

      const response = await call(user, 'GET', '/api/results/progress/')
      expect(response.status).toBe(200)
      expect(response.body).toEqual({
        attempts: [
          {
            attempt_id: a1.attempt_id,
            quiz: { id: first.quiz.id, title: { en: 'First', ne: first.quiz.title_ne } },
            score: 1.8,
            max_score: 4,
            total_questions: 4,
            correct: 2,
            incorrect: 1,
            unanswered: 1,
            completed_timestamp: a1.completed_timestamp,
            mode: 'online',
          },
          {
            attempt_id: b1.attempt_id,
            quiz: { id: second.quiz.id, title: { en: 'Second', ne: second.quiz.title_ne } },
            score: 1,
            max_score: 2,
            total_questions: 2,
            correct: 1,
            incorrect: 0,
            unanswered: 1,
            completed_timestamp: b1.completed_timestamp,
            mode: 'online',
          },
          {
            attempt_id: a2.attempt_id,
            quiz: { id: first.quiz.id, title: { en: 'First', ne: first.quiz.title_ne } },
            score: 1.6,
            max_score: 4,
            total_questions: 4,
            correct: 2,
            incorrect: 2,
            unanswered: 0,
            completed_timestamp: a2.completed_timestamp,
            mode: 'online',
          },
        ],
        topics: [
          { topic: 'algebra', correct: 2, incorrect: 1, unanswered: 1 },
          { topic: 'general', correct: 1, incorrect: 0, unanswered: 1 },
          { topic: 'geometry', correct: 1, incorrect: 1, unanswered: 0 },
          { topic: null, correct: 1, incorrect: 1, unanswered: 0 },
        ],
      })
    })

    it('answers empty lists to a learner without finished attempts, and 401 without a token', async () => {
      const user = await createUser(t.database)
      expect((await call(user, 'GET', '/api/results/progress')).body).toEqual({ attempts: [], topics: [] })
      expect((await t.app.inject({ method: 'GET', url: '/api/results/progress/' })).statusCode).toBe(401)
    })
  })
})
