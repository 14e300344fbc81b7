import type { Insertable } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { QuizTable, UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openQuiz, requestsAs, storedAnswers } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { questionBody } from '../../test/fixtures/admin.fixtures'

const MINUTE = 60_000

// API.md "Exam feel": review marks, visits, seconds per question, and shuffled papers.
describe.each(dialects)('exam feel on %s', (dialect) => {
  const t = useTestApp(dialect)

  const call = requestsAs(t)
  const start = (user: UserRow, quizId: number) => call(user, 'GET', `/api/quizzes/${quizId}/`)
  const question = (user: UserRow, quizId: number, n: number) =>
    call(user, 'GET', `/api/quizzes/${quizId}/question/${n}/`)
  const save = (user: UserRow, quizId: number, body: Record<string, unknown>) =>
    call(user, 'PUT', `/api/quizzes/${quizId}/answers/`, body)
  const submit = (user: UserRow, quizId: number, body: Record<string, unknown>) =>
    call(user, 'POST', `/api/quizzes/${quizId}/submit/`, body)

  const activeQuiz = (overrides: Partial<Insertable<QuizTable>> = {}, questionCount = 3) =>
    openQuiz(t, overrides, { questionCount })

  const stateRows = (attemptId: number) =>
    t.db
      .selectFrom('attempt_question_states')
      .select(['question_id', 'marked', 'visited', 'time_spent'])
      .where('attempt_id', '=', attemptId)
      .orderBy('question_id')
      .execute()
  const answerRows = (attemptId: number) => storedAnswers(t.db, attemptId)

  describe('marks, visits and seconds', () => {
    it('starts empty, then merges marks, adds visits and seconds, and shows them in the attempt order on resume', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q, correctOptionIds: right } = await activeQuiz({}, 4)
      const first = await start(user, quiz.id)
      expect(first.body.attempt).toMatchObject({ marked: [], visited: [], time_spent: {} })

      t.clock.advance(MINUTE)
      expect(
        (
          await save(user, quiz.id, {
            answers: { [q[0]!]: right[0] },
            marked: { [q[2]!]: true, [q[0]!]: true },
            visited: [q[2]!, q[0]!, q[1]!],
            time_spent: { [q[0]!]: 20, [q[1]!]: 5, [q[2]!]: 0 },
          })
        ).body,
      ).toEqual({ saved: 1 })
      // Without answers: a mark taken back, a visit repeated, more seconds.
      expect(
        (await save(user, quiz.id, { marked: { [q[0]!]: false }, visited: [q[1]!], time_spent: { [q[0]!]: 10 } })).body,
      ).toEqual({ saved: 0 })

      const resumed = await start(user, quiz.id)
      expect(resumed.body.attempt).toMatchObject({
        id: first.body.attempt.id,
        answers: { [q[0]!]: right[0] },
        marked: [q[2]],
        visited: [q[0], q[1], q[2]],
        time_spent: { [q[0]!]: 30, [q[1]!]: 5 },
      })
    })

    it('refuses an empty autosave body', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz()
      await start(user, quiz.id)
      expect((await save(user, quiz.id, {})).status).toBe(400)
    })

    it('answers 400 and stores nothing for unknown questions, negative or fractional seconds', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q, correctOptionIds: right } = await activeQuiz()
      const other = await activeQuiz()
      const { attempt } = (await start(user, quiz.id)).body
      t.clock.advance(MINUTE)
      const good = { answers: { [q[0]!]: right[0] }, marked: { [q[1]!]: true }, visited: [q[0]!] }
      const stranger = other.questionIds[0]!
      for (const [body, path] of [
        [{ ...good, marked: { [stranger]: true } }, `marked.${stranger}`],
        [{ ...good, visited: [q[0]!, stranger] }, 'visited.1'],
        [{ ...good, time_spent: { [stranger]: 3 } }, `time_spent.${stranger}`],
        [{ ...good, time_spent: { [q[0]!]: -1 } }, `time_spent.${q[0]}`],
        [{ ...good, time_spent: { [q[0]!]: 1.5 } }, `time_spent.${q[0]}`],
        [{ ...good, time_spent: { [q[0]!]: '3' } }, `time_spent.${q[0]}`],
        [{ ...good, visited: [-4] }, 'visited.0'],
      ] as const) {
        for (const send of [save, submit]) {
          const response = await send(user, quiz.id, body)
          expect(response.status).toBe(400)
          expect(response.body.code).toBe('validation_error')
          expect(Object.keys(response.body.errors)).toContain(path)
        }
      }
      expect(await stateRows(attempt.id)).toEqual([])
      expect(await answerRows(attempt.id)).toEqual([])
      const [row] = await t.db.selectFrom('attempts').select('status').where('id', '=', attempt.id).execute()
      expect(row!.status).toBe('in_progress')
    })

    it("caps the attempt's stored seconds at its age plus 5, dropping the excess", async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q } = await activeQuiz()
      const { attempt } = (await start(user, quiz.id)).body
      t.clock.advance(10_000)
      await save(user, quiz.id, { time_spent: { [q[0]!]: 8, [q[1]!]: 100 } })
      expect((await start(user, quiz.id)).body.attempt.time_spent).toEqual({ [q[0]!]: 8, [q[1]!]: 7 })
      await save(user, quiz.id, { time_spent: { [q[2]!]: 4 } })
      expect((await stateRows(attempt.id)).reduce((sum, row) => sum + row.time_spent, 0)).toBe(15)

      t.clock.advance(20_500)
      await save(user, quiz.id, { time_spent: { [q[2]!]: 50 } })
      expect((await start(user, quiz.id)).body.attempt.time_spent).toEqual({ [q[0]!]: 8, [q[1]!]: 7, [q[2]!]: 20 })
    })

    it('never passes the cap when reports arrive together', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q } = await activeQuiz()
      const { attempt } = (await start(user, quiz.id)).body
      t.clock.advance(10_000)
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, index) => save(user, quiz.id, { time_spent: { [q[index % 3]!]: 4 } })),
      )
      expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200))
      expect((await stateRows(attempt.id)).reduce((sum, row) => sum + row.time_spent, 0)).toBe(15)
    })

    it('scores a marked question with an answer like any other, and stores what the submit carries', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q, correctOptionIds: right, wrongOptionIds: wrong } = await activeQuiz({}, 4)
      const { attempt } = (await start(user, quiz.id)).body
      t.clock.advance(MINUTE)
      await save(user, quiz.id, { answers: { [q[0]!]: right[0] }, marked: { [q[0]!]: true, [q[3]!]: true } })
      const result = await submit(user, quiz.id, {
        attempt_id: attempt.id,
        answers: { [q[1]!]: wrong[1] },
        marked: { [q[1]!]: true },
        visited: [q[0]!, q[1]!, q[3]!],
        time_spent: { [q[1]!]: 12 },
      })
      expect(result.status).toBe(200)
      expect(result.body).toMatchObject({ score: 0.8, correct: 1, incorrect: 1, unanswered: 2 })
      expect(await stateRows(attempt.id)).toEqual(
        [
          { question_id: q[0], marked: 1, visited: 1, time_spent: 0 },
          { question_id: q[1], marked: 1, visited: 1, time_spent: 12 },
          { question_id: q[3], marked: 1, visited: 1, time_spent: 0 },
        ].sort((a, b) => a.question_id! - b.question_id!),
      )
    })

    it('keeps marks, visits and seconds out of an attempt once it is submitted (409)', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q } = await activeQuiz()
      const { attempt } = (await start(user, quiz.id)).body
      await submit(user, quiz.id, { attempt_id: attempt.id, answers: {} })
      expect((await save(user, quiz.id, { marked: { [q[0]!]: true } })).status).toBe(409)
      expect(await stateRows(attempt.id)).toEqual([])
    })
  })

  describe('shuffled papers', () => {
    const QUESTIONS = 30

    /** The learner's paper: each question id with its option ids, in the order question n shows them. */
    async function paperOf(user: UserRow, quizId: number, count: number) {
      const paper: { id: number; options: number[] }[] = []
      for (let n = 1; n <= count; n++) {
        const { body } = await question(user, quizId, n)
        paper.push({ id: body.id, options: body.options.map((option: { id: number }) => option.id) })
      }
      return paper
    }

    it('gives each attempt its own order, keeps it on resume, scores by option id and reports in that order', async () => {
      const { quiz, questionIds, correctOptionIds } = await activeQuiz(
        { shuffle_questions: 1, shuffle_options: 1 },
        QUESTIONS,
      )
      const correctOf = new Map(questionIds.map((id, index) => [id, correctOptionIds[index]!]))
      const [ana, bikash] = [await createUser(t.database), await createUser(t.database)]

      const anaStart = (await start(ana, quiz.id)).body
      const bikashStart = (await start(bikash, quiz.id)).body
      const anaPaper = await paperOf(ana, quiz.id, QUESTIONS)
      const bikashPaper = await paperOf(bikash, quiz.id, QUESTIONS)

      // Both see every question once, with every option once; the orders differ (30! question orders).
      expect([...anaStart.questions.map((x: { id: number }) => x.id)].sort()).toEqual([...questionIds].sort())
      expect(anaPaper.map((x) => x.id)).toEqual(anaStart.questions.map((x: { id: number }) => x.id))
      expect(anaPaper.map((x) => x.id)).not.toEqual(bikashPaper.map((x) => x.id))
      expect(anaPaper.map((x) => x.id)).not.toEqual(questionIds)
      // Options drawn per question: over 30 questions of 4 options, some question's order differs from authored.
      expect(anaPaper.some((x) => x.options[0] !== correctOf.get(x.id))).toBe(true)

      // Resumed: the same order, not drawn again.
      t.clock.advance(MINUTE)
      expect((await start(ana, quiz.id)).body.questions).toEqual(anaStart.questions)
      expect(await paperOf(ana, quiz.id, QUESTIONS)).toEqual(anaPaper)

      // Ana answers everything right; Bikash answers the option in the first position of each question (mostly wrong).
      const anaAnswers = Object.fromEntries(anaPaper.map((x) => [x.id, correctOf.get(x.id)!]))
      const bikashAnswers = Object.fromEntries(bikashPaper.map((x) => [x.id, x.options[0]!]))
      const bikashCorrect = bikashPaper.filter((x) => x.options[0] === correctOf.get(x.id)).length
      await save(ana, quiz.id, { answers: anaAnswers })
      const anaResult = (await submit(ana, quiz.id, { attempt_id: anaStart.attempt.id })).body
      const bikashResult = (
        await submit(bikash, quiz.id, { attempt_id: bikashStart.attempt.id, answers: bikashAnswers })
      ).body
      expect(anaResult).toMatchObject({ score: QUESTIONS, correct: QUESTIONS, incorrect: 0 })
      expect(bikashResult).toMatchObject({ correct: bikashCorrect, incorrect: QUESTIONS - bikashCorrect })
      expect(bikashResult.score).toBeCloseTo(bikashCorrect - 0.2 * (QUESTIONS - bikashCorrect), 10)

      const report = (await call(ana, 'GET', `/api/results/${anaStart.attempt.id}/`)).body
      expect(
        report.questions.map((x: { id: number; options: { id: number }[] }) => ({
          id: x.id,
          options: x.options.map((option) => option.id),
        })),
      ).toEqual(anaPaper)
      expect(report.answers.map((x: { question: number }) => x.question)).toEqual(anaPaper.map((x) => x.id))
    })

    it('keeps the authored order for quizzes that do not shuffle', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, correctOptionIds } = await activeQuiz({}, 5)
      const { body } = await start(user, quiz.id)
      expect(body.questions.map((x: { id: number }) => x.id)).toEqual(questionIds)
      expect((await paperOf(user, quiz.id, 5)).map((x) => x.options[0])).toEqual(correctOptionIds)
      const [row] = await t.db.selectFrom('attempts').select('option_order').execute()
      expect(row!.option_order).toBeNull()
    })

    it('shuffles options only, when only options are to be shuffled', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds } = await activeQuiz({ shuffle_options: 1 }, QUESTIONS)
      const { body } = await start(user, quiz.id)
      expect(body.questions.map((x: { id: number }) => x.id)).toEqual(questionIds)
      const [row] = await t.db.selectFrom('attempts').select('option_order').execute()
      expect(JSON.parse(row!.option_order!)).toEqual((await paperOf(user, quiz.id, QUESTIONS)).map((x) => x.options))
    })

    it('draws and stores an order for an attempt started and finished by one submit', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, correctOptionIds } = await activeQuiz({ shuffle_questions: 1 }, QUESTIONS)
      const answers = Object.fromEntries(questionIds.map((id, index) => [id, correctOptionIds[index]!]))
      const result = (await submit(user, quiz.id, { answers })).body
      expect(result).toMatchObject({ correct: QUESTIONS, score: QUESTIONS })
      const report = (await call(user, 'GET', `/api/results/${result.attempt_id}/`)).body
      expect([...report.questions.map((x: { id: number }) => x.id)].sort()).toEqual([...questionIds].sort())
    })
  })

  describe('admin shuffle switches', () => {
    it('creates from JSON with the switches (off by default), shows them, and PATCHes them', async () => {
      const admin = await createUser(t.database, { is_admin: 1 })
      const create = (extra: Record<string, unknown>) =>
        call(admin, 'POST', '/api/quizzes/create-from-json/', {
          title: { en: 'Shuffled' },
          questions: [questionBody()],
          ...extra,
        })
      const plain = (await create({})).body.quiz_id
      const shuffledId = (await create({ shuffle_questions: true, shuffle_options: true })).body.quiz_id
      expect((await call(admin, 'GET', `/api/admin/quizzes/${plain}/`)).body).toMatchObject({
        shuffle_questions: false,
        shuffle_options: false,
      })
      expect((await call(admin, 'GET', `/api/admin/quizzes/${shuffledId}/`)).body).toMatchObject({
        shuffle_questions: true,
        shuffle_options: true,
      })
      const patched = await call(admin, 'PATCH', `/api/admin/quizzes/${plain}/`, { shuffle_options: true })
      expect(patched.body).toMatchObject({ shuffle_questions: false, shuffle_options: true })
      const list = (await call(admin, 'GET', '/api/admin/quizzes/')).body
      expect(list.find((quiz: { id: number }) => quiz.id === plain)).toMatchObject({ shuffle_options: true })
      expect((await call(admin, 'PATCH', `/api/admin/quizzes/${plain}/`, { shuffle_options: 'yes' })).status).toBe(400)
      expect((await create({ shuffle_questions: 1 })).status).toBe(400)
    })
  })
})
