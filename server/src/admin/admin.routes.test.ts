import { adminMessages } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import { svgRejections } from '../svg/sanitize-svg'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import {
  DEVANAGARI_SVG,
  HOSTILE_SVG,
  SANITISED_HOSTILE_SVG,
  TRIANGLE_SVG,
  questionBody,
  svgOfSize,
  twoOptions,
} from '../../test/fixtures/admin.fixtures'

const MB = 1024 * 1024
const HOUR = 3600_000

describe.each(dialects)('admin API on %s', (dialect) => {
  const t = useTestApp(dialect)

  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
  const asLearner = async () => bearerFor(t.tokens, await createUser(t.database))

  /** A quiz made through the API, so it carries everything a real one does. */
  async function postQuiz(headers: Record<string, string>, body: Record<string, unknown> = {}) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/quizzes/create-from-json/',
      headers,
      payload: { title: { en: 'Geometry', ne: 'ज्यामिति' }, questions: [questionBody()], ...body },
    })
    expect(response.statusCode).toBe(201)
    return response.json().quiz_id as number
  }

  const getQuiz = async (headers: Record<string, string>, id: number) =>
    t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${id}/`, headers })

  describe('who may call', () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/quizzes/'],
      ['GET', '/api/admin/quizzes/1/'],
      ['PATCH', '/api/admin/quizzes/1/', { duration_minutes: 10 }],
      ['DELETE', '/api/admin/quizzes/1/'],
      ['POST', '/api/admin/quizzes/1/questions/', questionBody()],
      ['PUT', '/api/admin/quizzes/1/questions/1/', questionBody()],
      ['DELETE', '/api/admin/quizzes/1/questions/1/'],
      ['POST', '/api/quizzes/create-from-json/', { title: { en: 'T' }, questions: [questionBody()] }],
    ]

    it.each(routes)('answers 401 to %s %s without a token', async (method, url, payload) => {
      await createQuiz(t.database)
      const response = await t.app.inject({ method: method as 'GET', url, ...(payload ? { payload } : {}) })
      expect(response.statusCode).toBe(401)
      expect(response.json().code).toBe('not_authenticated')
    })

    it.each(routes)('answers 403 to a learner on %s %s', async (method, url, payload) => {
      await createQuiz(t.database)
      const response = await t.app.inject({
        method: method as 'GET',
        url,
        headers: await asLearner(),
        ...(payload ? { payload } : {}),
      })
      expect(response.statusCode).toBe(403)
      expect(response.json()).toEqual({ detail: expect.any(String), code: 'permission_denied' })
    })

    it('answers 401 to an invalid token', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/admin/quizzes/',
        headers: { authorization: 'Bearer not.a.token' },
      })
      expect(response.statusCode).toBe(401)
    })

    it('answers 403 to a demoted admin whose token still says admin', async () => {
      const admin = await createUser(t.database, { is_admin: 1 })
      const headers = await bearerFor(t.tokens, admin)
      await t.db.updateTable('memberships').set({ is_admin: 0 }).where('user_id', '=', admin.id).execute()
      const response = await t.app.inject({ method: 'GET', url: '/api/admin/quizzes/', headers })
      expect(response.statusCode).toBe(403)
    })

    it('refuses a learner before reading the body, even an invalid or oversized one', async () => {
      const { quiz } = await createQuiz(t.database)
      const headers = await asLearner()
      const invalid = await t.app.inject({
        method: 'POST',
        url: `/api/admin/quizzes/${quiz.id}/questions/`,
        headers,
        payload: { nope: 1 },
      })
      expect(invalid.statusCode).toBe(403)
      const huge = await t.app.inject({
        method: 'POST',
        url: '/api/quizzes/create-from-json/',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ title: { en: 'x'.repeat(11 * MB) } }),
      })
      expect(huge.statusCode).toBe(403)
      expect(await t.db.selectFrom('paper_items').select('id').where('quiz_id', '=', quiz.id).execute()).toHaveLength(3)
    })
  })

  describe('GET /api/admin/quizzes/', () => {
    it('lists every quiz that is not deleted, active or not, newest first, with its live question count', async () => {
      const now = t.clock.now()
      const old = await createQuiz(t.database, {
        created_at: now - 3 * HOUR,
        end_time: now - HOUR,
        start_time: now - 2 * HOUR,
      })
      const future = await createQuiz(t.database, {
        created_at: now - 2 * HOUR,
        start_time: now + HOUR,
        is_paid_tier: 1,
        difficulty: 'hard',
      })
      const deleted = await createQuiz(t.database, { created_at: now - HOUR, deleted_at: now })
      await t.db.updateTable('questions').set({ deleted_at: now }).where('id', '=', future.questionIds[0]!).execute()

      const response = await t.app.inject({ method: 'GET', url: '/api/admin/quizzes/', headers: await asAdmin() })

      expect(response.statusCode).toBe(200)
      expect(response.headers['cache-control']).toBe('no-store')
      const list = response.json()
      expect(list.map((quiz: { id: number }) => quiz.id)).toEqual([future.quiz.id, old.quiz.id])
      expect(list.map((quiz: { id: number }) => quiz.id)).not.toContain(deleted.quiz.id)
      expect(list[0]).toEqual({
        id: future.quiz.id,
        title: { en: future.quiz.title_en, ne: 'प्रश्नोत्तरी' },
        start_time: new Date(now + HOUR).toISOString(),
        end_time: null,
        duration_minutes: 90,
        difficulty: 'hard',
        is_paid_tier: true,
        allowed_attempts: 3,
        shuffle_questions: false,
        shuffle_options: false,
        challenge_days: 7,
        upload_grace_minutes: 15,
        live: null,
        question_count: 2,
        status: 'published',
      })
      expect(list[1]).toMatchObject({
        end_time: new Date(now - HOUR).toISOString(),
        question_count: 3,
        is_paid_tier: false,
      })
    })

    it('answers an empty array when there are no quizzes', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/admin/quizzes', headers: await asAdmin() })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual([])
    })
  })

  describe('GET /api/admin/quizzes/{id}/', () => {
    it('returns the quiz with its questions, hints, topics, images and correct answers, in order', async () => {
      const headers = await asAdmin()
      const id = await postQuiz(headers, {
        questions: [
          questionBody(),
          questionBody({ text: { en: 'Second' }, hint: null, topic: undefined, image: undefined }),
        ],
      })

      const response = await getQuiz(headers, id)

      expect(response.statusCode).toBe(200)
      const quiz = response.json()
      expect(quiz).toMatchObject({ id, title: { en: 'Geometry', ne: 'ज्यामिति' }, question_count: 2 })
      expect(quiz.questions).toHaveLength(2)
      expect(quiz.questions[0]).toEqual({
        id: expect.any(Number),
        revision_id: expect.any(Number),
        text: { en: 'How many sides has a triangle?', ne: 'त्रिभुजका कति भुजा हुन्छन्?', html: null },
        hint: { en: 'Count the corners.', ne: 'कुनाहरू गन्नुहोस्।', html: null },
        topic: 'geometry',
        image: { picture: null, svg: TRIANGLE_SVG, caption: { en: 'A triangle', ne: 'त्रिभुज', html: null } },
        options: [
          {
            id: expect.any(Number),
            text: { en: '3', ne: '३', html: null },
            is_correct: true,
            image: { picture: null, svg: DEVANAGARI_SVG, caption: { en: '', ne: '', html: null } },
          },
          { id: expect.any(Number), text: { en: '4', ne: '४', html: null }, is_correct: false, image: null },
          { id: expect.any(Number), text: { en: '5', ne: '', html: null }, is_correct: false, image: null },
          { id: expect.any(Number), text: { en: '6', ne: '', html: null }, is_correct: false, image: null },
        ],
        key: null,
        type: 'choice',
        answer: null,
        decimals: null,
        marks: null,
        word_limit: null,
        model_answer: null,
      })
      expect(quiz.questions[1]).toMatchObject({
        text: { en: 'Second', ne: '', html: null },
        hint: null,
        topic: '',
        image: null,
      })
    })

    it('leaves deleted questions out', async () => {
      const { quiz, questionIds } = await createQuiz(t.database)
      await t.db.updateTable('questions').set({ deleted_at: t.clock.now() }).where('id', '=', questionIds[1]!).execute()
      const response = await getQuiz(await asAdmin(), quiz.id)
      expect(response.json().questions.map((q: { id: number }) => q.id)).toEqual([questionIds[0], questionIds[2]])
      expect(response.json().question_count).toBe(2)
    })

    it.each(['999', 'abc', '0', '-1', '1.5'])('answers 404 to quiz id %s', async (id) => {
      await createQuiz(t.database)
      const response = await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${id}/`, headers: await asAdmin() })
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('not_found')
    })

    it('answers 404 for a deleted quiz', async () => {
      const { quiz } = await createQuiz(t.database, { deleted_at: t.clock.now() })
      expect((await getQuiz(await asAdmin(), quiz.id)).statusCode).toBe(404)
    })
  })

  describe('PATCH /api/admin/quizzes/{id}/', () => {
    const patch = async (id: number, payload: unknown, headers?: Record<string, string>) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/admin/quizzes/${id}/`,
        headers: headers ?? (await asAdmin()),
        payload: payload as object,
      })

    it('updates every detail and answers the updated quiz with its questions', async () => {
      const headers = await asAdmin()
      const id = await postQuiz(headers)
      const response = await patch(
        id,
        {
          title: { en: 'Algebra', ne: 'बीजगणित' },
          start_time: '2026-12-01T12:45:00+05:45',
          end_time: '2026-12-02T07:00:00.000Z',
          duration_minutes: 1440,
          is_paid_tier: true,
          allowed_attempts: 1000,
          difficulty: 'easy',
        },
        headers,
      )

      expect(response.statusCode).toBe(200)
      const quiz = response.json()
      expect(quiz).toMatchObject({
        id,
        title: { en: 'Algebra', ne: 'बीजगणित' },
        start_time: '2026-12-01T07:00:00.000Z',
        end_time: '2026-12-02T07:00:00.000Z',
        duration_minutes: 1440,
        is_paid_tier: true,
        allowed_attempts: 1000,
        difficulty: 'easy',
        question_count: 1,
      })
      expect(quiz.questions).toHaveLength(1)
      expect((await getQuiz(headers, id)).json()).toEqual(quiz)
    })

    it('changes only the fields sent; an omitted Nepali title becomes empty', async () => {
      const { quiz } = await createQuiz(t.database, { end_time: t.clock.now() + HOUR, duration_minutes: 45 })
      const response = await patch(quiz.id, { title: { en: '  Trimmed  ' } })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toMatchObject({
        title: { en: 'Trimmed', ne: '' },
        duration_minutes: 45,
        end_time: new Date(t.clock.now() + HOUR).toISOString(),
      })
    })

    it('removes the end with end_time null', async () => {
      const { quiz } = await createQuiz(t.database, { end_time: t.clock.now() + HOUR })
      const response = await patch(quiz.id, { end_time: null })
      expect(response.statusCode).toBe(200)
      expect(response.json().end_time).toBeNull()
      const row = await t.db
        .selectFrom('quizzes')
        .select('end_time')
        .where('id', '=', quiz.id)
        .executeTakeFirstOrThrow()
      expect(row.end_time).toBeNull()
    })

    it('accepts an empty patch and ignores unknown fields', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await patch(quiz.id, { id: 77, question_count: 5, deleted_at: 1 })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toMatchObject({ id: quiz.id, question_count: 3 })
    })

    it.each([
      ['a start without an offset', { start_time: '2026-12-01T07:00:00' }, 'start_time'],
      ['an end that is a date only', { end_time: '2026-12-01' }, 'end_time'],
      ['a start that is not a date', { start_time: 'tomorrow' }, 'start_time'],
      ['a null start', { start_time: null }, 'start_time'],
      ['a duration of 0', { duration_minutes: 0 }, 'duration_minutes'],
      ['a duration of 1441', { duration_minutes: 1441 }, 'duration_minutes'],
      ['a fractional duration', { duration_minutes: 1.5 }, 'duration_minutes'],
      ['a duration sent as a string', { duration_minutes: '90' }, 'duration_minutes'],
      ['0 attempts', { allowed_attempts: 0 }, 'allowed_attempts'],
      ['1001 attempts', { allowed_attempts: 1001 }, 'allowed_attempts'],
      ['an unknown difficulty', { difficulty: 'extreme' }, 'difficulty'],
      ['a paid tier sent as a string', { is_paid_tier: 'yes' }, 'is_paid_tier'],
      ['a blank English title', { title: { en: '   ', ne: 'x' } }, 'title.en'],
      ['a title of 301 characters', { title: { en: 'x'.repeat(301) } }, 'title.en'],
      ['a title that is a string', { title: 'Algebra' }, 'title'],
    ])('refuses %s with 400 at its field and changes nothing', async (_name, body, field) => {
      const { quiz } = await createQuiz(t.database)
      const response = await patch(quiz.id, {
        ...body,
        duration_minutes: (body as { duration_minutes?: unknown }).duration_minutes ?? 30,
      })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({ code: 'validation_error', errors: { [field]: [expect.any(String)] } })
      expect(Object.keys(response.json().errors)).toEqual([field])
      const row = await t.db.selectFrom('quizzes').selectAll().where('id', '=', quiz.id).executeTakeFirstOrThrow()
      expect(row).toEqual(quiz)
    })

    it('reports every bad field at once', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await patch(quiz.id, {
        duration_minutes: 0,
        allowed_attempts: 0,
        difficulty: 'x',
        end_time: 'soon',
      })
      expect(response.statusCode).toBe(400)
      expect(Object.keys(response.json().errors).sort()).toEqual([
        'allowed_attempts',
        'difficulty',
        'duration_minutes',
        'end_time',
      ])
      expect(response.json().errors.duration_minutes).toEqual([adminMessages.duration])
    })

    it('refuses an end before the start sent with it', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await patch(quiz.id, { start_time: '2026-12-02T00:00:00Z', end_time: '2026-12-01T00:00:00Z' })
      expect(response.statusCode).toBe(400)
      expect(response.json().errors).toEqual({ end_time: [adminMessages.endAfterStart] })
    })

    it('refuses an end equal to the start', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await patch(quiz.id, {
        start_time: '2026-12-01T05:45:00+05:45',
        end_time: '2026-12-01T00:00:00Z',
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().errors).toEqual({ end_time: [adminMessages.endAfterStart] })
    })

    it('checks a new end against the stored start, and a new start against the stored end', async () => {
      const now = t.clock.now()
      const { quiz } = await createQuiz(t.database, { start_time: now, end_time: now + 2 * HOUR })
      const end = await patch(quiz.id, { end_time: new Date(now - HOUR).toISOString() })
      expect(end.statusCode).toBe(400)
      expect(end.json().errors).toEqual({ end_time: [adminMessages.endAfterStart] })
      const start = await patch(quiz.id, { start_time: new Date(now + 3 * HOUR).toISOString() })
      expect(start.statusCode).toBe(400)
      expect(start.json().errors).toEqual({ start_time: [adminMessages.startBeforeEnd] })
      const row = await t.db.selectFrom('quizzes').selectAll().where('id', '=', quiz.id).executeTakeFirstOrThrow()
      expect(row).toEqual(quiz)
    })

    it('lets a start move past a removed end in the same patch', async () => {
      const now = t.clock.now()
      const { quiz } = await createQuiz(t.database, { start_time: now, end_time: now + HOUR })
      const response = await patch(quiz.id, { start_time: new Date(now + 2 * HOUR).toISOString(), end_time: null })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toMatchObject({ start_time: new Date(now + 2 * HOUR).toISOString(), end_time: null })
    })

    it('answers 404 for an unknown or deleted quiz', async () => {
      const { quiz } = await createQuiz(t.database, { deleted_at: t.clock.now() })
      expect((await patch(quiz.id, { duration_minutes: 10 })).statusCode).toBe(404)
      expect((await patch(quiz.id + 100, { duration_minutes: 10 })).statusCode).toBe(404)
    })

    it('answers 400 to malformed JSON and to a body that is not an object', async () => {
      const { quiz } = await createQuiz(t.database)
      const headers = { ...(await asAdmin()), 'content-type': 'application/json' }
      const malformed = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/quizzes/${quiz.id}/`,
        headers,
        payload: '{"title": ',
      })
      expect(malformed.statusCode).toBe(400)
      expect(malformed.json().code).toBe('validation_error')
      const array = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/quizzes/${quiz.id}/`,
        headers,
        payload: '[1, 2]',
      })
      expect(array.statusCode).toBe(400)
      expect(array.json().errors).toEqual({ non_field_errors: [expect.any(String)] })
    })

    it('answers 415 to a body that is not JSON', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/quizzes/${quiz.id}/`,
        headers: { ...(await asAdmin()), 'content-type': 'text/plain' },
        payload: 'duration_minutes=10',
      })
      expect(response.statusCode).toBe(415)
      expect(response.json().code).toBe('unsupported_media_type')
    })

    it('answers 413 to a body over 1 MB', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await patch(quiz.id, { title: { en: 'x'.repeat(MB + 10) } })
      expect(response.statusCode).toBe(413)
      expect(response.json().code).toBe('payload_too_large')
    })
  })

  describe('DELETE /api/admin/quizzes/{id}/', () => {
    it('answers 204, hides the quiz from every admin route, and keeps its row for results', async () => {
      const headers = await asAdmin()
      const { quiz, questionIds } = await createQuiz(t.database)
      const response = await t.app.inject({ method: 'DELETE', url: `/api/admin/quizzes/${quiz.id}/`, headers })
      expect(response.statusCode).toBe(204)
      expect(response.body).toBe('')

      const list = await t.app.inject({ method: 'GET', url: '/api/admin/quizzes/', headers })
      expect(list.json()).toEqual([])
      expect((await getQuiz(headers, quiz.id)).statusCode).toBe(404)
      const again = await t.app.inject({ method: 'DELETE', url: `/api/admin/quizzes/${quiz.id}/`, headers })
      expect(again.statusCode).toBe(404)
      const add = await t.app.inject({
        method: 'POST',
        url: `/api/admin/quizzes/${quiz.id}/questions/`,
        headers,
        payload: questionBody(),
      })
      expect(add.statusCode).toBe(404)
      const edit = await t.app.inject({
        method: 'PUT',
        url: `/api/admin/quizzes/${quiz.id}/questions/${questionIds[0]}/`,
        headers,
        payload: questionBody(),
      })
      expect(edit.statusCode).toBe(404)
      const remove = await t.app.inject({
        method: 'DELETE',
        url: `/api/admin/quizzes/${quiz.id}/questions/${questionIds[0]}/`,
        headers,
      })
      expect(remove.statusCode).toBe(404)

      const row = await t.db.selectFrom('quizzes').selectAll().where('id', '=', quiz.id).executeTakeFirstOrThrow()
      expect(row).toEqual({ ...quiz, deleted_at: t.clock.now() })
    })

    it('answers 404 for an unknown quiz', async () => {
      const response = await t.app.inject({
        method: 'DELETE',
        url: '/api/admin/quizzes/4242/',
        headers: await asAdmin(),
      })
      expect(response.statusCode).toBe(404)
    })
  })

  describe('POST /api/admin/quizzes/{id}/questions/', () => {
    const post = async (quizId: number, payload: unknown, headers?: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/quizzes/${quizId}/questions/`,
        headers: headers ?? (await asAdmin()),
        payload: payload as object,
      })

    it('answers 201 with the new question and appends it to the quiz', async () => {
      const headers = await asAdmin()
      const { quiz, questionIds } = await createQuiz(t.database)
      const response = await post(quiz.id, questionBody(), headers)

      expect(response.statusCode).toBe(201)
      const question = response.json()
      expect(question).toMatchObject({
        text: { en: 'How many sides has a triangle?', ne: 'त्रिभुजका कति भुजा हुन्छन्?' },
        hint: { en: 'Count the corners.', ne: 'कुनाहरू गन्नुहोस्।' },
        topic: 'geometry',
        image: { svg: TRIANGLE_SVG, caption: { en: 'A triangle', ne: 'त्रिभुज' } },
      })
      expect(question.options.map((option: { is_correct: boolean }) => option.is_correct)).toEqual([
        true,
        false,
        false,
        false,
      ])
      expect(new Set(question.options.map((option: { id: number }) => option.id)).size).toBe(4)

      const detail = (await getQuiz(headers, quiz.id)).json()
      expect(detail.questions.map((q: { id: number }) => q.id)).toEqual([...questionIds, question.id])
      expect(detail.questions[3]).toEqual(question)
      expect(detail.question_count).toBe(4)
    })

    it('accepts the smallest question: English text and two options, everything else absent', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await post(quiz.id, { text: { en: 'Is it?' }, options: twoOptions })
      expect(response.statusCode).toBe(201)
      expect(response.json()).toMatchObject({ text: { en: 'Is it?', ne: '' }, hint: null, topic: '', image: null })
    })

    it('treats a hint with both languages empty as no hint', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await post(quiz.id, questionBody({ hint: { en: '', ne: '  ' } }))
      expect(response.statusCode).toBe(201)
      expect(response.json().hint).toBeNull()
    })

    it('stores SVG sanitised: scripts and event handlers are gone', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await post(
        quiz.id,
        questionBody({
          image: { svg: HOSTILE_SVG },
          options: [{ ...twoOptions[0], image: { svg: HOSTILE_SVG } }, twoOptions[1]],
        }),
      )
      expect(response.statusCode).toBe(201)
      expect(response.json().image).toEqual({
        svg: SANITISED_HOSTILE_SVG,
        picture: null,
        caption: { en: '', ne: '', html: null },
      })
      expect(response.json().options[0].image.svg).toBe(SANITISED_HOSTILE_SVG)
      const stored = await t.db
        .selectFrom('question_revisions')
        .select('image_svg')
        .where('question_id', '=', response.json().id)
        .execute()
      expect(stored).toEqual([{ image_svg: SANITISED_HOSTILE_SVG }])
    })

    it.each([
      [
        'no correct option',
        { options: [{ ...twoOptions[0], is_correct: false }, twoOptions[1]] },
        'options',
        adminMessages.exactlyOneCorrect,
      ],
      [
        'two correct options',
        { options: [twoOptions[0], { ...twoOptions[1], is_correct: true }] },
        'options',
        adminMessages.exactlyOneCorrect,
      ],
      ['one option', { options: [twoOptions[0]] }, 'options', adminMessages.optionCount],
      [
        'eleven options',
        { options: [twoOptions[0], ...Array.from({ length: 10 }, () => twoOptions[1])] },
        'options',
        adminMessages.optionCount,
      ],
      ['no options', { options: undefined }, 'options', adminMessages.required],
      ['a blank question', { text: { en: ' ', ne: 'प्रश्न' } }, 'text.en', adminMessages.blank],
      ['a question of 5,001 characters', { text: { en: 'x'.repeat(5001) } }, 'text.en', adminMessages.tooLong(5000)],
      [
        'a blank option',
        { options: [twoOptions[0], { text: { en: '' }, is_correct: false }] },
        'options.1.text.en',
        adminMessages.blank,
      ],
      [
        'is_correct as a string',
        { options: [twoOptions[0], { ...twoOptions[1], is_correct: 'false' }] },
        'options.1.is_correct',
        undefined,
      ],
      ['a hint only in Nepali', { hint: { en: '', ne: 'संकेत' } }, 'hint.en', adminMessages.blank],
      ['a topic of 101 characters', { topic: 't'.repeat(101) }, 'topic', adminMessages.tooLong(100)],
      ['an image without svg', { image: { caption: { en: 'x' } } }, 'image.svg', adminMessages.required],
      ['a blank svg', { image: { svg: '  ' } }, 'image.svg', adminMessages.blank],
      ['markup that is not SVG', { image: { svg: '<div onclick="x">hi</div>' } }, 'image.svg', svgRejections.notSvg],
      [
        'an option SVG with nothing left after sanitising',
        { options: [{ ...twoOptions[0], image: { svg: '<svg><script>alert(1)</script></svg>' } }, twoOptions[1]] },
        'options.0.image.svg',
        svgRejections.emptyAfterSanitising,
      ],
      ['an SVG over 200 KB', { image: { svg: svgOfSize(200 * 1024 + 100) } }, 'image.svg', adminMessages.svgTooLarge],
      [
        'an SVG that is not well-formed',
        { image: { svg: '<svg><g></svg>' } },
        'image.svg',
        expect.stringMatching(/^This SVG is not well-formed XML \(line 1/),
      ],
      [
        'an SVG nested too deep',
        { image: { svg: `<svg>${'<g>'.repeat(120)}</svg>` } },
        'image.svg',
        svgRejections.tooComplex,
      ],
    ])('refuses %s with 400 at its path', async (_name, overrides, field, message) => {
      const { quiz } = await createQuiz(t.database)
      const response = await post(quiz.id, questionBody(overrides))
      expect(response.statusCode).toBe(400)
      expect(response.json().code).toBe('validation_error')
      expect(response.json().errors[field]).toEqual(message ? expect.arrayContaining([message]) : [expect.any(String)])
      const count = await t.db.selectFrom('paper_items').select('id').where('quiz_id', '=', quiz.id).execute()
      expect(count).toHaveLength(3)
    })

    it('accepts an SVG of exactly 200 KB', async () => {
      const { quiz } = await createQuiz(t.database)
      const svg = svgOfSize(200 * 1024 - 40)
      expect(svg.length).toBeLessThanOrEqual(200 * 1024)
      const response = await post(quiz.id, questionBody({ image: { svg } }))
      expect(response.statusCode).toBe(201)
    })

    it('reports a missing correct answer and a blank option together', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await post(quiz.id, {
        text: { en: '' },
        options: [
          { text: { en: 'a' }, is_correct: false },
          { text: { en: '' }, is_correct: false },
        ],
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().errors).toEqual({
        'text.en': [adminMessages.blank],
        'options.1.text.en': [adminMessages.blank],
        options: [adminMessages.exactlyOneCorrect],
      })
    })

    it('reports a refused SVG together with the other bad fields', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await post(quiz.id, {
        text: { en: '' },
        image: { svg: '<p>not svg</p>' },
        options: [{ text: { en: 'a' }, is_correct: true, image: { svg: '<svg onload="x"/>' } }, { text: { en: 'b' } }],
      })
      expect(response.statusCode).toBe(400)
      expect(response.json().errors).toEqual({
        'text.en': [adminMessages.blank],
        'image.svg': [svgRejections.notSvg],
        'options.0.image.svg': [svgRejections.emptyAfterSanitising],
      })
    })

    it('accepts a body over 1 MB (the question routes allow 10 MB)', async () => {
      const { quiz } = await createQuiz(t.database)
      const svg = svgOfSize(150 * 1024)
      const options = Array.from({ length: 8 }, (_, i) => ({
        text: { en: `Option ${i}` },
        is_correct: i === 0,
        image: { svg },
      }))
      const payload = questionBody({ options })
      expect(JSON.stringify(payload).length).toBeGreaterThan(MB)
      const response = await post(quiz.id, payload)
      expect(response.statusCode).toBe(201)
    })

    it('answers 413 to a body over 10 MB', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await post(quiz.id, questionBody({ text: { en: 'x'.repeat(10 * MB + 1) } }))
      expect(response.statusCode).toBe(413)
      expect(response.json()).toEqual({ detail: 'The request body is too large.', code: 'payload_too_large' })
    })

    it('answers 400 to malformed JSON', async () => {
      const { quiz } = await createQuiz(t.database)
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/admin/quizzes/${quiz.id}/questions/`,
        headers: { ...(await asAdmin()), 'content-type': 'application/json' },
        payload: '{"text": {"en": "x"},',
      })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ detail: 'Malformed request body.', code: 'validation_error' })
    })

    it('answers 404 for an unknown quiz', async () => {
      expect((await post(999, questionBody())).statusCode).toBe(404)
    })
  })

  describe('PUT /api/admin/quizzes/{id}/questions/{questionId}/', () => {
    const put = async (quizId: number, questionId: number, payload: unknown, headers?: Record<string, string>) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/admin/quizzes/${quizId}/questions/${questionId}/`,
        headers: headers ?? (await asAdmin()),
        payload: payload as object,
      })

    it('answers 200 with the new content under the same question id, in the same place', async () => {
      const headers = await asAdmin()
      const { quiz, questionIds, correctOptionIds } = await createQuiz(t.database)
      const response = await put(quiz.id, questionIds[1]!, questionBody(), headers)

      expect(response.statusCode).toBe(200)
      const question = response.json()
      expect(question).toMatchObject({
        id: questionIds[1],
        text: { en: 'How many sides has a triangle?' },
        topic: 'geometry',
      })
      expect(question.options.map((o: { id: number }) => o.id)).not.toContain(correctOptionIds[1])

      const detail = (await getQuiz(headers, quiz.id)).json()
      expect(detail.questions.map((q: { id: number }) => q.id)).toEqual(questionIds)
      expect(detail.questions[1]).toEqual(question)
    })

    it('keeps the earlier revision for attempts that started with it', async () => {
      const { quiz, questionIds } = await createQuiz(t.database)
      const before = await t.db
        .selectFrom('questions')
        .select('revision_id')
        .where('id', '=', questionIds[0]!)
        .executeTakeFirstOrThrow()
      expect((await put(quiz.id, questionIds[0]!, questionBody())).statusCode).toBe(200)
      const revisions = await t.db
        .selectFrom('question_revisions')
        .select(['id', 'text_en'])
        .where('question_id', '=', questionIds[0]!)
        .orderBy('id')
        .execute()
      expect(revisions).toEqual([
        { id: before.revision_id, text_en: 'Question 1' },
        { id: expect.any(Number), text_en: 'How many sides has a triangle?' },
      ])
      const options = await t.db
        .selectFrom('question_options')
        .select('id')
        .where('revision_id', '=', before.revision_id!)
        .execute()
      expect(options).toHaveLength(4)
    })

    it('refuses a question without exactly one correct option and keeps the old one', async () => {
      const headers = await asAdmin()
      const { quiz, questionIds } = await createQuiz(t.database)
      const response = await put(
        quiz.id,
        questionIds[0]!,
        questionBody({ options: [twoOptions[0], { ...twoOptions[1], is_correct: true }] }),
        headers,
      )
      expect(response.statusCode).toBe(400)
      expect(response.json().errors).toEqual({ options: [adminMessages.exactlyOneCorrect] })
      expect((await getQuiz(headers, quiz.id)).json().questions[0].text.en).toBe('Question 1')
    })

    it('answers 404 for a question of another quiz, a deleted question, or unknown ids', async () => {
      const headers = await asAdmin()
      const first = await createQuiz(t.database)
      const second = await createQuiz(t.database)
      await t.db
        .updateTable('questions')
        .set({ deleted_at: t.clock.now() })
        .where('id', '=', first.questionIds[2]!)
        .execute()

      expect((await put(first.quiz.id, second.questionIds[0]!, questionBody(), headers)).statusCode).toBe(404)
      expect((await put(first.quiz.id, first.questionIds[2]!, questionBody(), headers)).statusCode).toBe(404)
      expect((await put(first.quiz.id, 9999, questionBody(), headers)).statusCode).toBe(404)
      expect((await put(9999, first.questionIds[0]!, questionBody(), headers)).statusCode).toBe(404)
      const revisions = await t.db.selectFrom('question_revisions').select('id').execute()
      expect(revisions).toHaveLength(6)
    })
  })

  describe('DELETE /api/admin/quizzes/{id}/questions/{questionId}/', () => {
    const remove = async (quizId: number, questionId: number, headers: Record<string, string>) =>
      t.app.inject({ method: 'DELETE', url: `/api/admin/quizzes/${quizId}/questions/${questionId}/`, headers })

    it('answers 204 and the question leaves the quiz but stays in the bank', async () => {
      const headers = await asAdmin()
      const { quiz, questionIds } = await createQuiz(t.database)
      const response = await remove(quiz.id, questionIds[0]!, headers)
      expect(response.statusCode).toBe(204)

      const detail = (await getQuiz(headers, quiz.id)).json()
      expect(detail.questions.map((q: { id: number }) => q.id)).toEqual(questionIds.slice(1))
      expect(detail.question_count).toBe(2)
      const list = (await t.app.inject({ method: 'GET', url: '/api/admin/quizzes/', headers })).json()
      expect(list[0].question_count).toBe(2)
      const row = await t.db
        .selectFrom('questions')
        .selectAll()
        .where('id', '=', questionIds[0]!)
        .executeTakeFirstOrThrow()
      // API.md "Question bank": deleting a quiz's question removes it from this paper only.
      expect(row.deleted_at).toBeNull()
      expect(row.revision_id).not.toBeNull()
    })

    it('answers 404 the second time, for another quiz, and for unknown ids', async () => {
      const headers = await asAdmin()
      const first = await createQuiz(t.database)
      const second = await createQuiz(t.database)
      expect((await remove(first.quiz.id, first.questionIds[0]!, headers)).statusCode).toBe(204)
      expect((await remove(first.quiz.id, first.questionIds[0]!, headers)).statusCode).toBe(404)
      expect((await remove(first.quiz.id, second.questionIds[0]!, headers)).statusCode).toBe(404)
      expect((await remove(first.quiz.id, 9999, headers)).statusCode).toBe(404)
      expect((await remove(9999, first.questionIds[1]!, headers)).statusCode).toBe(404)
      // Every question stays in the bank; only the first quiz's paper lost one.
      const live = await t.db.selectFrom('questions').select('id').where('deleted_at', 'is', null).execute()
      expect(live).toHaveLength(6)
      expect(await t.db.selectFrom('paper_items').select('id').execute()).toHaveLength(5)
    })
  })
})
