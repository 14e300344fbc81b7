import type { Insertable } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { QuizTable, UserRow } from '../db/schema'
import { insertQuestion, insertRevision, type QuestionContent } from '../questions/question-revisions.repository'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openQuiz, requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

const MINUTE = 60_000

describe.each(dialects)('results routes on %s', (dialect) => {
  const t = useTestApp(dialect)

  const call = requestsAs(t)
  const start = (user: UserRow, quizId: number) => call(user, 'GET', `/api/quizzes/${quizId}/`)
  const save = (user: UserRow, quizId: number, answers: Record<number, number | null>) =>
    call(user, 'PUT', `/api/quizzes/${quizId}/answers/`, { answers })
  const submit = (user: UserRow, quizId: number, answers: Record<number, number | null> = {}) =>
    call(user, 'POST', `/api/quizzes/${quizId}/submit/`, { answers })
  const results = (user: UserRow) => call(user, 'GET', '/api/results/')
  const report = (user: UserRow, attemptId: number | string) => call(user, 'GET', `/api/results/${attemptId}/`)

  const activeQuiz = (overrides: Partial<Insertable<QuizTable>> = {}, questionCount = 3) =>
    openQuiz(t, overrides, { questionCount })

  const pictured: QuestionContent = {
    text: { en: 'Which shape?', ne: 'कुन आकार?' },
    hint: { en: 'It is round', ne: 'गोलो' },
    topic: 'geometry',
    image: {
      svg: '<svg xmlns="http://www.w3.org/2000/svg"><circle r="3"/></svg>',
      caption: { en: 'Figure 1', ne: 'चित्र १' },
    },
    options: [
      { text: { en: 'Square', ne: '' }, is_correct: false, image: null },
      {
        text: { en: 'Circle', ne: 'वृत्त' },
        is_correct: true,
        image: { svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', caption: { en: 'round', ne: '' } },
      },
    ],
  }

  describe('GET /api/results/', () => {
    it('lists the quizzes with finished attempts, most recent first, attempts in order with scores to 2 decimals', async () => {
      const user = await createUser(t.database)
      const first = await activeQuiz()
      const second = await activeQuiz()
      const a1 = (
        await submit(user, first.quiz.id, {
          [first.questionIds[0]!]: first.correctOptionIds[0]!,
          [first.questionIds[1]!]: first.wrongOptionIds[1]!,
        })
      ).body
      t.clock.advance(MINUTE)
      const a2 = (await submit(user, first.quiz.id)).body
      t.clock.advance(MINUTE)
      const b1 = (await submit(user, second.quiz.id, { [second.questionIds[0]!]: second.wrongOptionIds[0]! })).body
      await start(user, second.quiz.id)

      const response = await results(user)
      expect(response.status).toBe(200)
      expect(response.body).toEqual([
        {
          id: second.quiz.id,
          title: { en: second.quiz.title_en, ne: second.quiz.title_ne },
          attempts: [
            {
              id: b1.attempt_id,
              attempt_number: 1,
              score: -0.2,
              completed_timestamp: b1.completed_timestamp,
              ranked: true,
              mode: 'online',
              marking: 'none',
              written: null,
            },
          ],
        },
        {
          id: first.quiz.id,
          title: { en: first.quiz.title_en, ne: first.quiz.title_ne },
          attempts: [
            {
              id: a1.attempt_id,
              attempt_number: 1,
              score: 0.8,
              completed_timestamp: a1.completed_timestamp,
              ranked: true,
              mode: 'online',
              marking: 'none',
              written: null,
            },
            {
              id: a2.attempt_id,
              attempt_number: 2,
              score: 0,
              completed_timestamp: a2.completed_timestamp,
              ranked: true,
              mode: 'online',
              marking: 'none',
              written: null,
            },
          ],
        },
      ])
    })

    it('answers an empty list to a learner without finished attempts', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz()
      await start(user, quiz.id)
      expect((await results(user)).body).toEqual([])
    })

    it("shows only the learner's own attempts", async () => {
      const [alice, bob] = [await createUser(t.database), await createUser(t.database)]
      const { quiz } = await activeQuiz()
      await submit(alice, quiz.id)
      expect((await results(bob)).body).toEqual([])
      expect((await results(alice)).body).toHaveLength(1)
    })

    it('keeps deleted quizzes in the list', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz()
      await submit(user, quiz.id)
      await t.db.updateTable('quizzes').set({ deleted_at: t.clock.now() }).where('id', '=', quiz.id).execute()
      expect((await results(user)).body).toMatchObject([{ id: quiz.id, title: { en: quiz.title_en } }])
    })

    it('lists an attempt whose time ran out, finished on its saved answers at its deadline', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, correctOptionIds } = await activeQuiz({ duration_minutes: 10 })
      const { attempt } = (await start(user, quiz.id)).body
      await save(user, quiz.id, { [questionIds[2]!]: correctOptionIds[2]! })
      t.clock.advance(10 * MINUTE + 120_000 + 1)

      expect((await results(user)).body).toEqual([
        {
          id: quiz.id,
          title: { en: quiz.title_en, ne: quiz.title_ne },
          attempts: [
            {
              id: attempt.id,
              attempt_number: 1,
              score: 1,
              completed_timestamp: attempt.deadline,
              ranked: true,
              mode: 'online',
              marking: 'none',
              written: null,
            },
          ],
        },
      ])
    })

    it('answers 401 without a token', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/results/' })).statusCode).toBe(401)
    })
  })

  describe('GET /api/results/{attemptId}/', () => {
    it('returns the report card with questions, correct options, hints, images and one answer per question', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, correctOptionIds, wrongOptionIds } = await activeQuiz({}, 2)
      const picturedId = await insertQuestion(t.db, quiz.id, pictured, t.clock.now())
      const { attempt } = (await start(user, quiz.id)).body
      const options = await t.db
        .selectFrom('question_options')
        .innerJoin('questions', 'questions.revision_id', 'question_options.revision_id')
        .innerJoin('paper_items', 'paper_items.question_id', 'questions.id')
        .select(['question_options.id', 'questions.id as question_id'])
        .where('paper_items.quiz_id', '=', quiz.id)
        .orderBy('paper_items.position')
        .orderBy('question_options.position')
        .execute()
      const optionsOf = (questionId: number) => options.filter((o) => o.question_id === questionId).map((o) => o.id)
      const submitted = (
        await submit(user, quiz.id, { [questionIds[0]!]: wrongOptionIds[0]!, [picturedId]: optionsOf(picturedId)[1]! })
      ).body

      const response = await report(user, attempt.id)
      expect(response.status).toBe(200)
      const plainQuestion = (index: number) => ({
        id: questionIds[index],
        text: { en: `Question ${index + 1}`, ne: `प्रश्न ${index + 1}`, html: null },
        hint: { en: 'A hint', ne: '', html: null },
        topic: 'general',
        image: null,
        type: 'choice',
        options: optionsOf(questionIds[index]!).map((id, i) => ({
          id,
          text: { en: ['A', 'B', 'C', 'D'][i], ne: '', html: null },
          is_correct: id === correctOptionIds[index],
          image: null,
        })),
        passage: null,
      })
      expect(response.body).toEqual({
        id: attempt.id,
        attempt_number: 1,
        quiz: { id: quiz.id, title: { en: quiz.title_en, ne: quiz.title_ne }, live: false },
        ranked: true,
        adapted: null,
        mode: 'online',
        score: 0.8,
        marking: 'none',
        written: null,
        correct: 1,
        incorrect: 1,
        unanswered: 1,
        partial: 0,
        completed_timestamp: submitted.completed_timestamp,
        challenge_closes_at: new Date(Date.parse(submitted.completed_timestamp) + 7 * 86_400_000).toISOString(),
        key_withheld: null,
        key_withheld_until: null,
        questions: [
          plainQuestion(0),
          plainQuestion(1),
          {
            id: picturedId,
            text: { en: 'Which shape?', ne: 'कुन आकार?', html: null },
            hint: { en: 'It is round', ne: 'गोलो', html: null },
            topic: 'geometry',
            type: 'choice',
            image: {
              picture: null,
              svg_content: '<svg xmlns="http://www.w3.org/2000/svg"><circle r="3"/></svg>',
              caption: { en: 'Figure 1', ne: 'चित्र १', html: null },
            },
            options: [
              {
                id: optionsOf(picturedId)[0],
                text: { en: 'Square', ne: '', html: null },
                is_correct: false,
                image: null,
              },
              {
                id: optionsOf(picturedId)[1],
                text: { en: 'Circle', ne: 'वृत्त', html: null },
                is_correct: true,
                image: {
                  picture: null,
                  svg_content: '<svg xmlns="http://www.w3.org/2000/svg"/>',
                  caption: { en: 'round', ne: '', html: null },
                },
              },
            ],
            passage: null,
          },
        ],
        answers: [
          {
            question: questionIds[0],
            selected_option: wrongOptionIds[0],
            marks: -0.2,
            marked: false,
            time_spent_seconds: 0,
            flag: null,
            regrade: null,
          },
          {
            question: questionIds[1],
            selected_option: null,
            marks: 0,
            marked: false,
            time_spent_seconds: 0,
            flag: null,
            regrade: null,
          },
          {
            question: picturedId,
            selected_option: optionsOf(picturedId)[1],
            marks: 1,
            marked: false,
            time_spent_seconds: 0,
            flag: null,
            regrade: null,
          },
        ],
        analysis: {
          topics: [
            { topic: 'general', correct: 0, incorrect: 1, unanswered: 1, score: -0.2 },
            { topic: 'geometry', correct: 1, incorrect: 0, unanswered: 0, score: 1 },
          ],
          negative_marks: 0.2,
          participants: 1,
          rank: 1,
          percentile: 100,
          average_score: 0.8,
          highest_score: 0.8,
        },
        // API.md "Papers": the one default section of a quiz without sections.
        time_vs_top: response.body.answers.map((answer: { question: number }) => ({
          question_id: answer.question,
          seconds: 0,
          top_seconds: null,
        })),
        max_score: 3,
        sections: [{ title: { en: '', ne: '' }, score: 0.8, max_score: 3, correct: 1, incorrect: 1, unanswered: 1 }],
      })
    })

    it('shows a question without a hint with hint: null', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({}, 0)
      await insertQuestion(t.db, quiz.id, { ...pictured, hint: null }, t.clock.now())
      const { attempt_id } = (await submit(user, quiz.id)).body
      expect((await report(user, attempt_id)).body.questions[0].hint).toBeNull()
    })

    it('keeps the report unchanged after the questions are edited and deleted and the quiz is deleted', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, correctOptionIds } = await activeQuiz({}, 3)
      const { attempt_id } = (
        await submit(user, quiz.id, {
          [questionIds[0]!]: correctOptionIds[0]!,
          [questionIds[1]!]: correctOptionIds[1]!,
        })
      ).body
      const before = await report(user, attempt_id)
      const listBefore = await results(user)

      const edited = await insertRevision(
        t.db,
        questionIds[0]!,
        { ...pictured, text: { en: 'Rewritten', ne: '' } },
        t.clock.now(),
      )
      await t.db.updateTable('questions').set({ revision_id: edited }).where('id', '=', questionIds[0]!).execute()
      await t.db.updateTable('questions').set({ deleted_at: t.clock.now() }).where('id', '=', questionIds[1]!).execute()
      await t.db.updateTable('quizzes').set({ deleted_at: t.clock.now() }).where('id', '=', quiz.id).execute()

      const after = await report(user, attempt_id)
      expect(after.status).toBe(200)
      expect(after.body).toEqual(before.body)
      expect(after.body.questions[0].text.en).toBe('Question 1')
      expect((await results(user)).body).toEqual(listBefore.body)
    })

    it("answers 404 for another learner's attempt and for an unknown one", async () => {
      const [alice, bob] = [await createUser(t.database), await createUser(t.database)]
      const { quiz } = await activeQuiz()
      const { attempt_id } = (await submit(alice, quiz.id)).body
      expect((await report(bob, attempt_id)).status).toBe(404)
      expect((await report(bob, attempt_id)).body.code).toBe('not_found')
      expect((await report(alice, 99_999)).status).toBe(404)
      expect((await report(alice, 'abc')).status).toBe(404)
      expect((await report(alice, attempt_id)).status).toBe(200)
    })

    it('answers 404 for an attempt still in progress', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz()
      const { attempt } = (await start(user, quiz.id)).body
      expect((await report(user, attempt.id)).status).toBe(404)
    })

    it('finishes an attempt whose time ran out when its report is asked for', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, wrongOptionIds } = await activeQuiz({ duration_minutes: 1 })
      const { attempt } = (await start(user, quiz.id)).body
      await save(user, quiz.id, { [questionIds[0]!]: wrongOptionIds[0]! })
      t.clock.advance(MINUTE + 120_000 + 1)
      const response = await report(user, attempt.id)
      expect(response.status).toBe(200)
      expect(response.body).toMatchObject({
        score: -0.2,
        incorrect: 1,
        unanswered: 2,
        completed_timestamp: attempt.deadline,
      })
    })

    it('answers 401 without a token', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/results/1/' })).statusCode).toBe(401)
    })
  })
})
