import { messages } from '@quiz/contracts'
import type { Insertable } from 'kysely'
import { describe, expect, it } from 'vitest'
import type { QuizTable, UserRow } from '../db/schema'
import { insertQuestion, insertRevision, type QuestionContent } from '../questions/question-revisions.repository'
import { dialects } from '../../test/dialects'
import { bearerFor, createBankQuestions, createUser } from '../../test/factories'
import { openQuiz, requestsAs, storedAnswers, storedAttempts } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const GRACE = 120_000

describe.each(dialects)('learner quiz routes on %s', (dialect) => {
  const t = useTestApp(dialect)

  const call = requestsAs(t)
  const start = (user: UserRow, quizId: number) => call(user, 'GET', `/api/quizzes/${quizId}/`)
  const question = (user: UserRow, quizId: number, n: number | string) =>
    call(user, 'GET', `/api/quizzes/${quizId}/question/${n}/`)
  const save = (user: UserRow, quizId: number, answers: Record<number | string, unknown>) =>
    call(user, 'PUT', `/api/quizzes/${quizId}/answers/`, { answers })
  const submit = (user: UserRow, quizId: number, body: Record<string, unknown> = { answers: {} }) =>
    call(user, 'POST', `/api/quizzes/${quizId}/submit/`, body)
  const list = (user: UserRow) => call(user, 'GET', '/api/quizzes/')

  const activeQuiz = (overrides: Partial<Insertable<QuizTable>> = {}, seeds = {}) => openQuiz(t, overrides, seeds)

  const attemptRows = (userId: number, quizId: number) => storedAttempts(t.db, userId, quizId)
  const answerRows = (attemptId: number) => storedAnswers(t.db, attemptId)

  const content = (text: string, withImages = false): QuestionContent => ({
    text: { en: text, ne: `${text} (ne)` },
    hint: { en: 'Think twice', ne: '' },
    topic: 'algebra',
    image: withImages
      ? { svg: '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>', caption: { en: 'A circle', ne: 'वृत्त' } }
      : null,
    options: [
      {
        text: { en: `${text}: right`, ne: '' },
        is_correct: true,
        image: withImages ? { svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', caption: { en: 'opt', ne: '' } } : null,
      },
      { text: { en: `${text}: wrong`, ne: '' }, is_correct: false, image: null },
    ],
  })

  describe('GET /api/quizzes/', () => {
    it('lists only active quizzes, with attempts, paid tier and question count', async () => {
      const user = await createUser(t.database)
      const now = t.clock.now()
      const { quiz } = await activeQuiz(
        { end_time: now + HOUR, difficulty: 'hard', duration_minutes: 30 },
        { questionCount: 4 },
      )
      await activeQuiz({ start_time: now + MINUTE })
      await activeQuiz({ start_time: now - 2 * HOUR, end_time: now })
      await activeQuiz({ deleted_at: now - MINUTE })

      const response = await list(user)
      expect(response.status).toBe(200)
      expect(response.body).toEqual([
        {
          id: quiz.id,
          title: { en: quiz.title_en, ne: quiz.title_ne },
          duration_minutes: 30,
          difficulty: 'hard',
          is_paid_tier: false,
          allowed_attempts: 3,
          remaining_attempts: 3,
          has_attempt_in_progress: false,
          can_start: true,
          start_time: new Date(now - HOUR).toISOString(),
          end_time: new Date(now + HOUR).toISOString(),
          question_count: 4,
          sections: [
            { title: { en: '', ne: '' }, marks_correct: 1, marks_wrong: 0.2, count: 4, time_limit_minutes: null },
          ],
          live: null,
          registered: false,
        },
      ])
    })

    it("carries the paper's sections for the instructions, and follows an edit of the paper", async () => {
      const user = await createUser(t.database)
      const admin = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
      const { quiz, questionIds } = await activeQuiz({}, { questionCount: 2 })
      await createBankQuestions(t.db, 'maths', 5, t.clock.now())
      const putSections = (sections: unknown) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/admin/quizzes/${quiz.id}/sections/`,
          headers: admin,
          payload: { sections },
        })
      const fixed = { title: { en: 'General', ne: 'सामान्य' }, items: questionIds.map((id) => ({ question_id: id })) }
      const drawn = { title: { en: 'Maths', ne: '' }, items: [{ draw: { topic: 'maths', count: 3 } }] }
      // Read once before the edit, so a list that kept what it read first would show the old paper.
      expect((await list(user)).body[0].sections).toHaveLength(1)

      const timed = await putSections([
        { ...fixed, marks_correct: 2, marks_wrong: 0.4, time_limit_minutes: 10 },
        { ...drawn, marks_correct: 1, marks_wrong: 0.25, time_limit_minutes: 20 },
      ])
      expect(timed.statusCode, timed.body).toBe(200)
      const [item] = (await list(user)).body
      expect(item).toMatchObject({ question_count: 5, duration_minutes: 30 })
      expect(item.sections).toEqual([
        {
          title: { en: 'General', ne: 'सामान्य' },
          marks_correct: 2,
          marks_wrong: 0.4,
          count: 2,
          time_limit_minutes: 10,
        },
        { title: { en: 'Maths', ne: '' }, marks_correct: 1, marks_wrong: 0.25, count: 3, time_limit_minutes: 20 },
      ])

      expect(
        (await putSections([{ ...drawn, marks_correct: 1.5, marks_wrong: 0, time_limit_minutes: null }])).statusCode,
      ).toBe(200)
      expect((await list(user)).body[0].sections).toEqual([
        { title: { en: 'Maths', ne: '' }, marks_correct: 1.5, marks_wrong: 0, count: 3, time_limit_minutes: null },
      ])
      // A fixed question deleted from the bank's side leaves its section one question short.
      expect(
        (await putSections([{ ...fixed, marks_correct: 1, marks_wrong: 0.2, time_limit_minutes: null }])).statusCode,
      ).toBe(200)
      await t.db.updateTable('questions').set({ deleted_at: t.clock.now() }).where('id', '=', questionIds[0]!).execute()
      expect((await list(user)).body[0].sections[0].count).toBe(1)
    })

    it('shows an open end as null and counts only questions that are not deleted', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds } = await activeQuiz({}, { questionCount: 3 })
      await t.db.updateTable('questions').set({ deleted_at: t.clock.now() }).where('id', '=', questionIds[0]!).execute()
      const [item] = (await list(user)).body
      expect(item).toMatchObject({ id: quiz.id, end_time: null, question_count: 2 })
      expect(item.sections[0].count).toBe(2)
    })

    it('counts the attempt in progress against the remaining attempts', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz()
      await start(user, quiz.id)
      const [item] = (await list(user)).body
      expect(item).toMatchObject({ remaining_attempts: 2, has_attempt_in_progress: true, can_start: true })
    })

    it('says a learner cannot start once every attempt is used', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ allowed_attempts: 1 })
      await start(user, quiz.id)
      await submit(user, quiz.id)
      const [item] = (await list(user)).body
      expect(item).toMatchObject({ remaining_attempts: 0, has_attempt_in_progress: false, can_start: false })
    })

    it('keeps can_start true while the last attempt is in progress', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ allowed_attempts: 1 })
      await start(user, quiz.id)
      const [item] = (await list(user)).body
      expect(item).toMatchObject({ remaining_attempts: 0, has_attempt_in_progress: true, can_start: true })
    })

    it('lists paid-tier quizzes for everyone but lets only paid learners and admins start them', async () => {
      const free = await createUser(t.database)
      const paid = await createUser(t.database, { paid_access_until: t.clock.now() + 86_400_000 })
      const admin = await createUser(t.database, { is_admin: 1 })
      await activeQuiz({ is_paid_tier: 1 })
      expect((await list(free)).body[0]).toMatchObject({ is_paid_tier: true, can_start: false, remaining_attempts: 3 })
      expect((await list(paid)).body[0]).toMatchObject({ is_paid_tier: true, can_start: true })
      expect((await list(admin)).body[0]).toMatchObject({ is_paid_tier: true, can_start: true })
    })

    it('shows each learner only their own attempts', async () => {
      const [alice, bob] = [await createUser(t.database), await createUser(t.database)]
      const { quiz } = await activeQuiz()
      await start(alice, quiz.id)
      expect((await list(bob)).body[0]).toMatchObject({ remaining_attempts: 3, has_attempt_in_progress: false })
    })

    it('finishes an attempt whose time ran out on its saved answers when the list is asked for', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, correctOptionIds, wrongOptionIds } = await activeQuiz({ duration_minutes: 10 })
      const attempt = (await start(user, quiz.id)).body.attempt
      await save(user, quiz.id, { [questionIds[0]!]: correctOptionIds[0], [questionIds[1]!]: wrongOptionIds[1] })
      t.clock.advance(10 * MINUTE + GRACE + 1)

      const [item] = (await list(user)).body
      expect(item).toMatchObject({ remaining_attempts: 2, has_attempt_in_progress: false, can_start: true })
      const [row] = await attemptRows(user.id, quiz.id)
      expect(row).toMatchObject({
        id: attempt.id,
        status: 'finished',
        score_hundredths: 80,
        correct: 1,
        incorrect: 1,
        unanswered: 1,
        late: 1,
        submitted: 0,
        finished_at: Date.parse(attempt.deadline),
      })
    })

    it('keeps an attempt in progress during the grace period after its deadline', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ duration_minutes: 10 })
      await start(user, quiz.id)
      t.clock.advance(10 * MINUTE + GRACE)
      expect((await list(user)).body[0]).toMatchObject({ has_attempt_in_progress: true })
      expect((await attemptRows(user.id, quiz.id))[0]!.status).toBe('in_progress')
    })

    it('serves the list and a quiz with and without the trailing slash', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz()
      expect((await call(user, 'GET', '/api/quizzes')).body).toHaveLength(1)
      expect((await call(user, 'GET', `/api/quizzes/${quiz.id}`)).status).toBe(200)
      expect((await call(user, 'GET', `/api/quizzes/${quiz.id}/question/1`)).status).toBe(200)
    })

    it('answers 401 without a token', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/quizzes/' })
      expect(response.statusCode).toBe(401)
      expect(response.json().code).toBe('not_authenticated')
    })
  })

  describe('GET /api/quizzes/{id}/', () => {
    it('starts an attempt with the quiz, its questions in order and the deadline', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds } = await activeQuiz({ duration_minutes: 45 }, { questionCount: 3 })
      const now = t.clock.now()

      const response = await start(user, quiz.id)
      expect(response.status).toBe(200)
      const [row] = await attemptRows(user.id, quiz.id)
      expect(response.body).toEqual({
        id: quiz.id,
        title: { en: quiz.title_en, ne: quiz.title_ne },
        duration_minutes: 45,
        difficulty: 'medium',
        is_paid_tier: false,
        allowed_attempts: 3,
        remaining_attempts: 2,
        question_count: 3,
        questions: questionIds.map((id) => ({ id })),
        attempt: {
          id: row!.id,
          started_at: new Date(now).toISOString(),
          deadline: new Date(now + 45 * MINUTE).toISOString(),
          remaining_seconds: 45 * 60,
          ranked: true,
          adapted: null,
          answers: {},
          marked: [],
          visited: [],
          time_spent: {},
          // API.md "Papers": the one untimed default section of a quiz without sections.
          sections: [
            {
              title: { en: '', ne: '' },
              marks_correct: 1,
              marks_wrong: 0.2,
              first: 1,
              count: 3,
              time_limit_minutes: null,
              deadline: null,
              closed: false,
            },
          ],
        },
      })
      expect(row).toMatchObject({
        attempt_number: 1,
        status: 'in_progress',
        started_at: now,
        deadline: now + 45 * MINUTE,
      })
    })

    it('ends the attempt at the quiz end_time when that comes first', async () => {
      const user = await createUser(t.database)
      const endTime = t.clock.now() + 10 * MINUTE
      const { quiz } = await activeQuiz({ end_time: endTime, duration_minutes: 90 })
      const { attempt } = (await start(user, quiz.id)).body
      expect(attempt.deadline).toBe(new Date(endTime).toISOString())
      expect(attempt.remaining_seconds).toBe(600)
    })

    it('resumes the same attempt with its saved answers when called again', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, correctOptionIds } = await activeQuiz()
      const first = (await start(user, quiz.id)).body
      await save(user, quiz.id, { [questionIds[1]!]: correctOptionIds[1] })
      t.clock.advance(61_500)

      const again = await start(user, quiz.id)
      expect(again.status).toBe(200)
      expect(again.body.attempt).toEqual({
        ...first.attempt,
        remaining_seconds: first.attempt.remaining_seconds - 62,
        answers: { [questionIds[1]!]: correctOptionIds[1] },
      })
      expect(again.body.remaining_attempts).toBe(2)
      expect(await attemptRows(user.id, quiz.id)).toHaveLength(1)
    })

    it('answers 404 for an unknown, deleted, future or ended quiz', async () => {
      const user = await createUser(t.database)
      const now = t.clock.now()
      const deleted = (await activeQuiz({ deleted_at: now })).quiz
      const future = (await activeQuiz({ start_time: now + 1 })).quiz
      const ended = (await activeQuiz({ end_time: now })).quiz
      for (const id of [deleted.id, future.id, ended.id, 999_999]) {
        const response = await start(user, id)
        expect(response.status).toBe(404)
        expect(response.body).toEqual({ detail: messages.quizNotActive, code: 'not_found' })
      }
      expect(await t.db.selectFrom('attempts').selectAll().execute()).toEqual([])
    })

    it('answers 404 for a malformed quiz id', async () => {
      const user = await createUser(t.database)
      expect((await start(user, 0)).status).toBe(404)
      expect((await call(user, 'GET', '/api/quizzes/abc/')).status).toBe(404)
    })

    it('resumes an attempt in progress after the quiz stops being active', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz()
      const first = (await start(user, quiz.id)).body
      await t.db
        .updateTable('quizzes')
        .set({ end_time: t.clock.now() - 1 })
        .where('id', '=', quiz.id)
        .execute()
      const again = await start(user, quiz.id)
      expect(again.status).toBe(200)
      expect(again.body.attempt.id).toBe(first.attempt.id)
    })

    it('answers 403 no_attempts_left when every attempt is used', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ allowed_attempts: 2 })
      for (let i = 0; i < 2; i++) {
        expect((await start(user, quiz.id)).status).toBe(200)
        expect((await submit(user, quiz.id)).status).toBe(200)
      }
      const response = await start(user, quiz.id)
      expect(response.status).toBe(403)
      expect(response.body).toEqual({ detail: messages.noAttemptsLeft, code: 'no_attempts_left' })
      expect(await attemptRows(user.id, quiz.id)).toHaveLength(2)
    })

    it('checks the quiz before the attempts: an ended quiz with no attempts left is 404', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ allowed_attempts: 1 })
      await start(user, quiz.id)
      await submit(user, quiz.id)
      await t.db.updateTable('quizzes').set({ end_time: t.clock.now() }).where('id', '=', quiz.id).execute()
      expect((await start(user, quiz.id)).status).toBe(404)
    })

    it('answers 403 paid_access_required for a paid-tier quiz without paid access', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ is_paid_tier: 1 })
      const response = await start(user, quiz.id)
      expect(response.status).toBe(403)
      expect(response.body).toEqual({ detail: messages.paidAccessRequired, code: 'paid_access_required' })
      expect(await attemptRows(user.id, quiz.id)).toEqual([])
    })

    it('lets learners with paid access and admins start a paid-tier quiz', async () => {
      const paid = await createUser(t.database, { paid_access_until: t.clock.now() + 86_400_000 })
      const admin = await createUser(t.database, { is_admin: 1 })
      const { quiz } = await activeQuiz({ is_paid_tier: 1 })
      expect((await start(paid, quiz.id)).status).toBe(200)
      expect((await start(admin, quiz.id)).status).toBe(200)
    })

    it('finishes an attempt whose time ran out and starts the next one', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ duration_minutes: 5 })
      const first = (await start(user, quiz.id)).body.attempt
      t.clock.advance(5 * MINUTE + GRACE + 1)
      const second = await start(user, quiz.id)
      expect(second.status).toBe(200)
      expect(second.body.attempt.id).not.toBe(first.id)
      expect(second.body.remaining_attempts).toBe(1)
      const rows = await attemptRows(user.id, quiz.id)
      expect(rows.map((row) => [row.attempt_number, row.status])).toEqual([
        [1, 'finished'],
        [2, 'in_progress'],
      ])
    })

    it('gives a new attempt the edited questions while the attempt in progress keeps its own', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds } = await activeQuiz({}, { questionCount: 2 })
      await start(user, quiz.id)
      const revisionId = await insertRevision(t.db, questionIds[0]!, content('Edited question'), t.clock.now())
      await t.db.updateTable('questions').set({ revision_id: revisionId }).where('id', '=', questionIds[0]!).execute()

      expect((await question(user, quiz.id, 1)).body.text.en).toBe('Question 1')
      await submit(user, quiz.id)
      const next = (await start(user, quiz.id)).body
      expect(next.questions).toEqual(questionIds.map((id) => ({ id })))
      expect((await question(user, quiz.id, 1)).body.text.en).toBe('Edited question')
    })
  })

  describe('GET /api/quizzes/{id}/question/{n}/', () => {
    it('returns question n of the attempt with its options and never is_correct or hint', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({}, { questionCount: 1 })
      const questionId = await insertQuestion(t.db, quiz.id, content('With images', true), t.clock.now())
      await start(user, quiz.id)

      const response = await question(user, quiz.id, 2)
      expect(response.status).toBe(200)
      const revision = await t.db
        .selectFrom('questions')
        .select('revision_id')
        .where('id', '=', questionId)
        .executeTakeFirstOrThrow()
      const options = await t.db
        .selectFrom('question_options')
        .select('id')
        .where('revision_id', '=', revision.revision_id!)
        .orderBy('position')
        .execute()
      expect(response.body).toEqual({
        id: questionId,
        number: 2,
        type: 'choice',
        marks: null,
        word_limit: null,
        passage: null,
        text: { en: 'With images', ne: 'With images (ne)', html: null },
        topic: 'algebra',
        image: {
          picture: null,
          svg: '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>',
          caption: { en: 'A circle', ne: 'वृत्त', html: null },
        },
        options: [
          {
            id: options[0]!.id,
            text: { en: 'With images: right', ne: '', html: null },
            image: {
              picture: null,
              svg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
              caption: { en: 'opt', ne: '', html: null },
            },
          },
          { id: options[1]!.id, text: { en: 'With images: wrong', ne: '', html: null }, image: null },
        ],
      })
      expect(response.raw).not.toMatch(/is_correct|hint|Think twice/)
      const first = await question(user, quiz.id, 1)
      expect(first.body).toMatchObject({ number: 1, text: { en: 'Question 1' }, image: null })
      expect(first.raw).not.toMatch(/is_correct|hint/)
    })

    it('answers 404 when n is out of range', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({}, { questionCount: 3 })
      await start(user, quiz.id)
      for (const n of [0, 4, 'x', -1]) expect((await question(user, quiz.id, n)).status).toBe(404)
      expect((await question(user, quiz.id, 3)).status).toBe(200)
    })

    it('answers 403 without an attempt in progress', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz()
      const before = await question(user, quiz.id, 1)
      expect(before.status).toBe(403)
      expect(before.body.code).toBe('permission_denied')
      await start(user, quiz.id)
      await submit(user, quiz.id)
      expect((await question(user, quiz.id, 1)).status).toBe(403)
    })

    // The submit grace is not reading time: a scripted learner would get two more minutes with the paper.
    it('answers 403 from the deadline on, though the attempt is open for its submit until the grace ends', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ duration_minutes: 5 })
      await start(user, quiz.id)
      t.clock.advance(5 * MINUTE)
      expect((await question(user, quiz.id, 1)).status).toBe(200)
      t.clock.advance(1)
      const closed = await question(user, quiz.id, 1)
      expect(closed.status).toBe(403)
      expect(closed.body.detail).toBe('The time for this attempt is over; its questions are closed.')
      expect((await attemptRows(user.id, quiz.id))[0]!.status).toBe('in_progress')
      t.clock.advance(GRACE)
      expect((await question(user, quiz.id, 1)).status).toBe(403)
      expect((await attemptRows(user.id, quiz.id))[0]!.status).toBe('finished')
    })

    it('answers 404 for an unknown or inactive quiz before looking at attempts', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ start_time: t.clock.now() + HOUR })
      expect((await question(user, quiz.id, 1)).body).toEqual({ detail: messages.quizNotActive, code: 'not_found' })
      expect((await question(user, 424242, 1)).status).toBe(404)
    })

    it('keeps serving a question deleted after the attempt started', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds } = await activeQuiz({}, { questionCount: 2 })
      await start(user, quiz.id)
      await t.db.updateTable('questions').set({ deleted_at: t.clock.now() }).where('id', '=', questionIds[0]!).execute()
      expect((await question(user, quiz.id, 1)).body).toMatchObject({ id: questionIds[0], text: { en: 'Question 1' } })
      expect((await list(user)).body[0].question_count).toBe(1)
    })
  })

  describe('PUT /api/quizzes/{id}/answers/', () => {
    it('saves answers, merges later saves and clears an answer with null', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q, correctOptionIds: right, wrongOptionIds: wrong } = await activeQuiz()
      const { attempt } = (await start(user, quiz.id)).body

      const first = await save(user, quiz.id, { [q[0]!]: right[0], [q[1]!]: wrong[1] })
      expect(first).toMatchObject({ status: 200, body: { saved: 2 } })
      const second = await save(user, quiz.id, { [q[1]!]: null, [q[2]!]: right[2] })
      expect(second.body).toEqual({ saved: 2 })

      expect((await start(user, quiz.id)).body.attempt.answers).toEqual({ [q[0]!]: right[0], [q[2]!]: right[2] })
      expect(await answerRows(attempt.id)).toEqual([
        { question_id: q[0], option_id: right[0] },
        { question_id: q[1], option_id: null },
        { question_id: q[2], option_id: right[2] },
      ])
    })

    it('accepts an empty answer map', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz()
      await start(user, quiz.id)
      expect(await save(user, quiz.id, {})).toMatchObject({ status: 200, body: { saved: 0 } })
    })

    it('answers 400 and saves nothing when a question is not part of the attempt', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, correctOptionIds } = await activeQuiz()
      const other = await activeQuiz()
      const { attempt } = (await start(user, quiz.id)).body

      const response = await save(user, quiz.id, {
        [questionIds[0]!]: correctOptionIds[0],
        [other.questionIds[0]!]: other.correctOptionIds[0],
      })
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('validation_error')
      expect(Object.keys(response.body.errors)).toEqual([`answers.${other.questionIds[0]}`])
      expect(await answerRows(attempt.id)).toEqual([])
    })

    it('answers 400 and saves nothing when an option belongs to another question', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, correctOptionIds } = await activeQuiz()
      const { attempt } = (await start(user, quiz.id)).body
      const response = await save(user, quiz.id, { [questionIds[0]!]: correctOptionIds[1] })
      expect(response.status).toBe(400)
      expect(response.body.errors).toEqual({
        [`answers.${questionIds[0]}`]: ['This option does not belong to this question.'],
      })
      expect(await answerRows(attempt.id)).toEqual([])
    })

    it('answers 400 for a body of the wrong shape', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds } = await activeQuiz()
      await start(user, quiz.id)
      for (const body of [
        { answers: [] },
        { answers: { [questionIds[0]!]: 'x' } },
        { answers: { abc: 1 } },
        {},
        { answers: { [questionIds[0]!]: 1.5 } },
      ]) {
        const response = await call(user, 'PUT', `/api/quizzes/${quiz.id}/answers/`, body)
        expect(response.status).toBe(400)
        expect(response.body.code).toBe('validation_error')
      }
    })

    it('answers 409 and stores nothing when answers are saved after the deadline', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, correctOptionIds } = await activeQuiz({ duration_minutes: 5 })
      const { attempt } = (await start(user, quiz.id)).body
      t.clock.advance(5 * MINUTE)
      expect((await save(user, quiz.id, { [questionIds[0]!]: correctOptionIds[0] })).status).toBe(200)

      t.clock.advance(1)
      const inGrace = await save(user, quiz.id, { [questionIds[1]!]: correctOptionIds[1] })
      expect(inGrace.status).toBe(409)
      expect(inGrace.body.code).toBe('conflict')
      t.clock.advance(GRACE + 1)
      expect((await save(user, quiz.id, { [questionIds[1]!]: correctOptionIds[1] })).status).toBe(409)
      expect(await answerRows(attempt.id)).toEqual([{ question_id: questionIds[0], option_id: correctOptionIds[0] }])
    })

    it('answers 403 when the learner has no attempt at the quiz', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, correctOptionIds } = await activeQuiz()
      const response = await save(user, quiz.id, { [questionIds[0]!]: correctOptionIds[0] })
      expect(response.status).toBe(403)
      expect(response.body.code).toBe('permission_denied')
    })

    it('answers 409 and stores nothing once the attempt was submitted', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds, correctOptionIds } = await activeQuiz()
      const { attempt } = (await start(user, quiz.id)).body
      await submit(user, quiz.id)
      const response = await save(user, quiz.id, { [questionIds[0]!]: correctOptionIds[0] })
      expect(response.status).toBe(409)
      expect(response.body.code).toBe('conflict')
      expect(await answerRows(attempt.id)).toEqual([])
    })

    it('answers 404 for an unknown or inactive quiz', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ end_time: t.clock.now() })
      expect((await save(user, quiz.id, {})).status).toBe(404)
      expect((await save(user, 777_777, {})).status).toBe(404)
    })
  })

  describe('POST /api/quizzes/{id}/submit/', () => {
    it('scores +1 per correct, -0.2 per wrong and 0 per unanswered, exact to 2 decimals', async () => {
      const user = await createUser(t.database)
      const {
        quiz,
        questionIds: q,
        correctOptionIds: right,
        wrongOptionIds: wrong,
      } = await activeQuiz({}, { questionCount: 6 })
      const { attempt } = (await start(user, quiz.id)).body
      const answers = {
        [q[0]!]: right[0],
        [q[1]!]: right[1],
        [q[2]!]: right[2],
        [q[3]!]: wrong[3],
        [q[4]!]: wrong[4],
        [q[5]!]: null,
      }

      const response = await submit(user, quiz.id, { answers, attempt_id: attempt.id })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({
        attempt_id: attempt.id,
        score: 2.6,
        correct: 3,
        incorrect: 2,
        unanswered: 1,
        total_questions: 6,
        completed_timestamp: new Date(t.clock.now()).toISOString(),
        late: false,
        ranked: true,
        // API.md "Papers": the one default section of a quiz without sections.
        max_score: 6,
        sections: [{ title: { en: '', ne: '' }, score: 2.6, max_score: 6, correct: 3, incorrect: 2, unanswered: 1 }],
      })
      expect(response.raw).toContain('"score":2.6,')
      expect((await attemptRows(user.id, quiz.id))[0]).toMatchObject({
        status: 'finished',
        score_hundredths: 260,
        submitted: 1,
        late: 0,
      })
    })

    it('allows a negative score', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q, wrongOptionIds: wrong } = await activeQuiz({}, { questionCount: 2 })
      await start(user, quiz.id)
      expect((await submit(user, quiz.id, { answers: { [q[0]!]: wrong[0], [q[1]!]: wrong[1] } })).body.score).toBe(-0.4)
    })

    it('merges submitted answers over the saved ones', async () => {
      const user = await createUser(t.database)
      const {
        quiz,
        questionIds: q,
        correctOptionIds: right,
        wrongOptionIds: wrong,
      } = await activeQuiz({}, { questionCount: 4 })
      const { attempt } = (await start(user, quiz.id)).body
      await save(user, quiz.id, { [q[0]!]: wrong[0], [q[1]!]: right[1], [q[2]!]: right[2] })

      const response = await submit(user, quiz.id, { answers: { [q[0]!]: right[0], [q[2]!]: null } })
      expect(response.body).toMatchObject({ correct: 2, incorrect: 0, unanswered: 2, score: 2 })
      expect(await answerRows(attempt.id)).toEqual([
        { question_id: q[0], option_id: right[0] },
        { question_id: q[1], option_id: right[1] },
        { question_id: q[2], option_id: null },
      ])
    })

    it('answers 400 and saves nothing when an answer names a question not in the quiz', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q, correctOptionIds: right } = await activeQuiz()
      const { attempt } = (await start(user, quiz.id)).body
      await save(user, quiz.id, { [q[0]!]: right[0] })

      const response = await submit(user, quiz.id, { answers: { [q[1]!]: right[1], 987654: 1 } })
      expect(response.status).toBe(400)
      expect(Object.keys(response.body.errors)).toEqual(['answers.987654'])
      expect((await attemptRows(user.id, quiz.id))[0]!.status).toBe('in_progress')
      expect(await answerRows(attempt.id)).toEqual([{ question_id: q[0], option_id: right[0] }])
    })

    it('answers 400 and starts nothing when an option does not belong to its question', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q, correctOptionIds: right } = await activeQuiz()
      const response = await submit(user, quiz.id, { answers: { [q[0]!]: right[1] } })
      expect(response.status).toBe(400)
      expect(await attemptRows(user.id, quiz.id)).toEqual([])
    })

    it('answers 400 for a body of the wrong shape', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz()
      await start(user, quiz.id)
      for (const body of [{ answers: 'all' }, { answers: {}, attempt_id: 'one' }, { answers: { 1: true } }]) {
        expect((await submit(user, quiz.id, body)).status).toBe(400)
      }
    })

    it('counts a submission within the grace period as sent', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q, correctOptionIds: right } = await activeQuiz({ duration_minutes: 5 })
      await start(user, quiz.id)
      t.clock.advance(5 * MINUTE + GRACE)
      const response = await submit(user, quiz.id, { answers: { [q[0]!]: right[0] } })
      expect(response.body).toMatchObject({
        correct: 1,
        late: false,
        completed_timestamp: new Date(t.clock.now()).toISOString(),
      })
    })

    it('scores a submission after the grace period on the answers saved before the deadline, with late: true', async () => {
      const user = await createUser(t.database)
      const {
        quiz,
        questionIds: q,
        correctOptionIds: right,
        wrongOptionIds: wrong,
      } = await activeQuiz({ duration_minutes: 5 })
      const { attempt } = (await start(user, quiz.id)).body
      await save(user, quiz.id, { [q[0]!]: right[0] })
      t.clock.advance(5 * MINUTE + GRACE + 1)

      const response = await submit(user, quiz.id, { answers: { [q[0]!]: wrong[0], [q[1]!]: right[1] } })
      expect(response.status).toBe(200)
      expect(response.body).toEqual({
        attempt_id: attempt.id,
        score: 1,
        correct: 1,
        incorrect: 0,
        unanswered: 2,
        total_questions: 3,
        completed_timestamp: attempt.deadline,
        late: true,
        ranked: true,
        max_score: 3,
        sections: [{ title: { en: '', ne: '' }, score: 1, max_score: 3, correct: 1, incorrect: 0, unanswered: 2 }],
      })
      expect(await attemptRows(user.id, quiz.id)).toHaveLength(1)
      expect(await answerRows(attempt.id)).toEqual([{ question_id: q[0], option_id: right[0] }])
    })

    it('answers a late submission for an attempt the list already finished with that attempt, late: true', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ duration_minutes: 5 })
      const { attempt } = (await start(user, quiz.id)).body
      t.clock.advance(5 * MINUTE + GRACE + 1)
      await list(user)
      expect((await attemptRows(user.id, quiz.id))[0]!.status).toBe('finished')
      t.clock.advance(50 * MINUTE)

      const response = await submit(user, quiz.id)
      expect(response.body).toMatchObject({ attempt_id: attempt.id, late: true, unanswered: 3 })
      expect(await attemptRows(user.id, quiz.id)).toHaveLength(1)
    })

    it('starts and finishes an attempt at once when none is in progress and attempts remain', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q, correctOptionIds: right } = await activeQuiz()
      const response = await submit(user, quiz.id, { answers: { [q[0]!]: right[0], [q[1]!]: right[1] } })
      expect(response.status).toBe(200)
      expect(response.body).toMatchObject({ correct: 2, unanswered: 1, score: 2, late: false })
      const [row] = await attemptRows(user.id, quiz.id)
      expect(row).toMatchObject({
        id: response.body.attempt_id,
        attempt_number: 1,
        status: 'finished',
        started_at: t.clock.now(),
      })
      expect(await answerRows(row!.id)).toHaveLength(2)
    })

    it('starts a new attempt at once when the latest one ran out more than an hour ago', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ duration_minutes: 5 })
      const { attempt } = (await start(user, quiz.id)).body
      t.clock.advance(5 * MINUTE + HOUR + 1)
      const response = await submit(user, quiz.id)
      expect(response.body).toMatchObject({ late: false })
      expect(response.body.attempt_id).not.toBe(attempt.id)
      expect((await attemptRows(user.id, quiz.id)).map((row) => row.status)).toEqual(['finished', 'finished'])
    })

    it('answers a late submission naming its attempt_id even after the hour', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ duration_minutes: 5 })
      const { attempt } = (await start(user, quiz.id)).body
      t.clock.advance(3 * HOUR)
      const response = await submit(user, quiz.id, { answers: {}, attempt_id: attempt.id })
      expect(response.body).toMatchObject({ attempt_id: attempt.id, late: true })
      expect(await attemptRows(user.id, quiz.id)).toHaveLength(1)
    })

    it('returns the same result when a submission is retried with its attempt_id', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q, correctOptionIds: right, wrongOptionIds: wrong } = await activeQuiz()
      const { attempt } = (await start(user, quiz.id)).body
      const first = await submit(user, quiz.id, { answers: { [q[0]!]: right[0] }, attempt_id: attempt.id })
      t.clock.advance(MINUTE)
      const retry = await submit(user, quiz.id, { answers: { [q[0]!]: wrong[0] }, attempt_id: attempt.id })
      expect(retry.status).toBe(200)
      expect(retry.body).toEqual(first.body)
      expect(await attemptRows(user.id, quiz.id)).toHaveLength(1)
    })

    it('answers 403 no_attempts_left when no attempt is in progress and none remain', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ allowed_attempts: 1 })
      expect((await submit(user, quiz.id)).status).toBe(200)
      const response = await submit(user, quiz.id)
      expect(response.status).toBe(403)
      expect(response.body.code).toBe('no_attempts_left')
      expect(await attemptRows(user.id, quiz.id)).toHaveLength(1)
    })

    it('answers 403 paid_access_required when a paid-tier quiz would start without paid access', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ is_paid_tier: 1 })
      const response = await submit(user, quiz.id)
      expect(response.status).toBe(403)
      expect(response.body.code).toBe('paid_access_required')
    })

    it('answers 404 for an unknown quiz or an inactive one without an attempt in progress', async () => {
      const user = await createUser(t.database)
      const { quiz } = await activeQuiz({ start_time: t.clock.now() + MINUTE })
      expect((await submit(user, quiz.id)).body).toEqual({ detail: messages.quizNotActive, code: 'not_found' })
      expect((await submit(user, 31337)).status).toBe(404)
      expect(await attemptRows(user.id, quiz.id)).toEqual([])
    })

    it('finishes the attempt in progress after the quiz stops being active', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q, correctOptionIds: right } = await activeQuiz()
      await start(user, quiz.id)
      await t.db
        .updateTable('quizzes')
        .set({ end_time: t.clock.now() - 1 })
        .where('id', '=', quiz.id)
        .execute()
      const response = await submit(user, quiz.id, { answers: { [q[0]!]: right[0] } })
      expect(response.body).toMatchObject({ correct: 1, late: false })
    })

    it("answers 404 for an attempt_id that is not one of the learner's attempts at this quiz", async () => {
      const [alice, bob] = [await createUser(t.database), await createUser(t.database)]
      const { quiz } = await activeQuiz()
      const { attempt } = (await start(alice, quiz.id)).body
      await start(bob, quiz.id)
      const response = await submit(bob, quiz.id, { answers: {}, attempt_id: attempt.id })
      expect(response.status).toBe(404)
      expect((await attemptRows(alice.id, quiz.id))[0]!.status).toBe('in_progress')
      expect((await attemptRows(bob.id, quiz.id))[0]!.status).toBe('in_progress')
    })

    it('scores the attempt on the questions it started with after an admin edit', async () => {
      const user = await createUser(t.database)
      const { quiz, questionIds: q, correctOptionIds: right } = await activeQuiz({}, { questionCount: 2 })
      await start(user, quiz.id)
      const revisionId = await insertRevision(t.db, q[0]!, content('Edited'), t.clock.now())
      await t.db.updateTable('questions').set({ revision_id: revisionId }).where('id', '=', q[0]!).execute()
      await t.db.updateTable('questions').set({ deleted_at: t.clock.now() }).where('id', '=', q[1]!).execute()
      const response = await submit(user, quiz.id, { answers: { [q[0]!]: right[0], [q[1]!]: right[1] } })
      expect(response.body).toMatchObject({ correct: 2, total_questions: 2, score: 2 })
    })

    it('answers 401 without a token, before looking at the body', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/quizzes/1/submit/', payload: { answers: 'x' } })
      expect(response.statusCode).toBe(401)
    })
  })
})
