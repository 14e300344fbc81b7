import { adminMessages, quizDefaults } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createBankQuestions, createQuiz, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { injectWith } from '../../test/requests'

const HOUR = 3600_000
const DAY = 24 * HOUR

// API.md "Administration", bullet "Drafts" (docs/decisions/048): a quiz made in the admin is a draft until published,
// invisible to learners on every path; publishing needs questions, unpublishing needs no attempts; duplicating
// copies the details and the paper as a new draft.
describe.each(dialects)('quiz drafts on %s', (dialect) => {
  const t = useTestApp(dialect)

  async function call(headers: Record<string, string>, method: string, url: string, payload?: unknown) {
    const response = await injectWith(t.app, headers, method, url, payload)
    return { status: response.statusCode, body: response.body === '' ? null : response.json() }
  }

  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1, username: 'boss' }))
  const asLearner = async () => bearerFor(t.tokens, await createUser(t.database))

  async function newDraft(headers: Record<string, string>, body: Record<string, unknown> = {}) {
    const response = await call(headers, 'POST', '/api/admin/quizzes/', {
      title: { en: 'Loksewa mock', ne: 'लोकसेवा नमुना' },
      ...body,
    })
    expect(response.status, JSON.stringify(response.body)).toBe(201)
    return response.body as { id: number; status: string; question_count: number }
  }

  const addQuestion = (headers: Record<string, string>, quizId: number) =>
    call(headers, 'POST', `/api/admin/quizzes/${quizId}/questions/`, questionBody({ image: null }))

  const learnerIds = async (headers: Record<string, string>) =>
    ((await call(headers, 'GET', '/api/quizzes/')).body as { id: number }[]).map((quiz) => quiz.id)

  describe('who may call', () => {
    const routes: [string, string, unknown?][] = [
      ['POST', '/api/admin/quizzes/', { title: { en: 'T' } }],
      ['POST', '/api/admin/quizzes/1/publish/'],
      ['POST', '/api/admin/quizzes/1/unpublish/'],
      ['POST', '/api/admin/quizzes/1/duplicate/'],
    ]

    it.each(routes)('answers 401 to %s %s without a token', async (method, url, payload) => {
      await createQuiz(t.database)
      const response = await call({}, method, url, payload)
      expect(response.status).toBe(401)
      expect(response.body.code).toBe('not_authenticated')
    })

    it.each(routes)('answers 403 to a learner on %s %s', async (method, url, payload) => {
      await createQuiz(t.database)
      const response = await call(await asLearner(), method, url, payload)
      expect(response.status).toBe(403)
      expect(response.body.code).toBe('permission_denied')
    })
  })

  describe('making a draft', () => {
    it('makes a draft with no questions and SPEC.md defaults, listed for admins with its status', async () => {
      const admin = await asAdmin()
      const draft = await newDraft(admin)
      expect(draft).toMatchObject({
        title: { en: 'Loksewa mock', ne: 'लोकसेवा नमुना' },
        start_time: new Date(t.clock.now()).toISOString(),
        end_time: null,
        duration_minutes: quizDefaults.duration_minutes,
        allowed_attempts: quizDefaults.allowed_attempts,
        difficulty: quizDefaults.difficulty,
        is_paid_tier: false,
        live: null,
        draw_mode: 'per_attempt',
        question_count: 0,
        questions: [],
        sections: [],
        status: 'draft',
      })
      const list = (await call(admin, 'GET', '/api/admin/quizzes/')).body
      expect(list).toEqual([expect.objectContaining({ id: draft.id, status: 'draft', question_count: 0 })])
    })

    it('takes the details of PATCH', async () => {
      const admin = await asAdmin()
      const start = new Date(t.clock.now() + DAY).toISOString()
      const end = new Date(t.clock.now() + 3 * DAY).toISOString()
      const draft = await newDraft(admin, {
        start_time: start,
        end_time: end,
        duration_minutes: 120,
        allowed_attempts: 1,
        difficulty: 'hard',
        is_paid_tier: true,
        shuffle_questions: true,
        challenge_days: 5,
        live: { starts_at: new Date(t.clock.now() + 2 * DAY).toISOString(), join_minutes: 15 },
      })
      expect(draft).toMatchObject({
        start_time: start,
        end_time: end,
        duration_minutes: 120,
        allowed_attempts: 1,
        difficulty: 'hard',
        is_paid_tier: true,
        shuffle_questions: true,
        challenge_days: 5,
        live: { join_minutes: 15 },
        draw_mode: 'frozen',
        status: 'draft',
      })
      // A draft's live mock reminds nobody until it is published.
      expect(await t.db.selectFrom('live_announcements').selectAll().execute()).toEqual([])
    })

    it.each([
      ['no title', {}, 'title'],
      ['a blank English title', { title: { en: '  ' } }, 'title.en'],
      ['a duration of 0', { title: { en: 'T' }, duration_minutes: 0 }, 'duration_minutes'],
      ['an unknown difficulty', { title: { en: 'T' }, difficulty: 'brutal' }, 'difficulty'],
      ['a title that is not text', { title: 'T' }, 'title'],
      [
        'an end before the start',
        { title: { en: 'T' }, start_time: '2026-12-02T00:00:00Z', end_time: '2026-12-01T00:00:00Z' },
        'end_time',
      ],
      [
        'a live mock drawn per attempt',
        {
          title: { en: 'T' },
          draw_mode: 'per_attempt',
          live: { starts_at: '2099-01-01T00:00:00Z', join_minutes: 15 },
        },
        'draw_mode',
      ],
      [
        'a live mock before the quiz opens',
        {
          title: { en: 'T' },
          start_time: '2099-02-01T00:00:00Z',
          live: { starts_at: '2099-01-01T00:00:00Z', join_minutes: 15 },
        },
        'live.starts_at',
      ],
    ])('answers 400 to %s, naming the field, and makes nothing', async (_name, body, field) => {
      const admin = await asAdmin()
      const response = await call(admin, 'POST', '/api/admin/quizzes/', body)
      expect(response.status).toBe(400)
      expect(response.body.code).toBe('validation_error')
      expect(Object.keys(response.body.errors)).toContain(field)
      expect(await t.db.selectFrom('quizzes').select('id').execute()).toEqual([])
    })

    it('answers 400, not 500, to a body that is not an object', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/admin/quizzes/',
        headers: { ...(await asAdmin()), 'content-type': 'application/json' },
        payload: '[1, 2]',
      })
      expect(response.statusCode).toBe(400)
    })
  })

  describe('what learners see of a draft', () => {
    it('leaves a draft out of the list, and answers 404 to starting it or to its questions', async () => {
      const admin = await asAdmin()
      const learner = await asLearner()
      const draft = await newDraft(admin)
      expect((await addQuestion(admin, draft.id)).status).toBe(201)
      const open = await createQuiz(t.database)

      expect(await learnerIds(learner)).toEqual([open.quiz.id])
      const start = await call(learner, 'GET', `/api/quizzes/${draft.id}/`)
      expect(start.status).toBe(404)
      expect(start.body.code).toBe('not_found')
      expect((await call(learner, 'GET', `/api/quizzes/${draft.id}/question/1/`)).status).toBe(404)
      expect((await call(learner, 'PUT', `/api/quizzes/${draft.id}/answers/`, { answers: {} })).status).toBe(404)
      expect((await call(learner, 'POST', `/api/quizzes/${draft.id}/submit/`, { answers: {} })).status).toBe(404)
      // An admin taking it as a learner would is refused too: a draft is started only after publishing.
      expect((await call(admin, 'GET', `/api/quizzes/${draft.id}/`)).status).toBe(404)
      expect(await t.db.selectFrom('attempts').select('id').execute()).toEqual([])
    })

    it('answers 404 to registering for a draft live mock and to its leaderboard', async () => {
      const admin = await asAdmin()
      const learner = await asLearner()
      const draft = await newDraft(admin, {
        live: { starts_at: new Date(t.clock.now() + DAY).toISOString(), join_minutes: 15 },
      })
      for (const [method, url] of [
        ['POST', `/api/quizzes/${draft.id}/register/`],
        ['DELETE', `/api/quizzes/${draft.id}/register/`],
        ['GET', `/api/quizzes/${draft.id}/leaderboard/`],
      ] as const) {
        const response = await call(learner, method, url)
        expect(response.status, `${method} ${url}`).toBe(404)
        expect(response.body.code).toBe('not_found')
      }
      expect(await t.db.selectFrom('live_registrations').selectAll().execute()).toEqual([])
    })
  })

  describe('publishing', () => {
    it('refuses an empty paper with 409 paper_empty, then publishes it once it has a question', async () => {
      const admin = await asAdmin()
      const learner = await asLearner()
      const draft = await newDraft(admin)

      const empty = await call(admin, 'POST', `/api/admin/quizzes/${draft.id}/publish/`)
      expect(empty.status).toBe(409)
      expect(empty.body).toEqual({ detail: adminMessages.publishEmpty, code: 'paper_empty' })

      await addQuestion(admin, draft.id)
      const published = await call(admin, 'POST', `/api/admin/quizzes/${draft.id}/publish/`)
      expect(published.status).toBe(200)
      expect(published.body).toMatchObject({ id: draft.id, status: 'published', question_count: 1 })
      expect(await learnerIds(learner)).toEqual([draft.id])
      expect((await call(learner, 'GET', `/api/quizzes/${draft.id}/`)).status).toBe(200)

      // Again: nothing to do, and nothing more in the trail.
      expect((await call(admin, 'POST', `/api/admin/quizzes/${draft.id}/publish/`)).body.status).toBe('published')
      const actions = await t.db
        .selectFrom('audit_events')
        .select(['action', 'entity_id', 'before_json', 'after_json', 'actor_username'])
        .where('action', '=', 'publish')
        .execute()
      expect(actions).toEqual([
        {
          action: 'publish',
          entity_id: draft.id,
          before_json: JSON.stringify({ status: 'draft' }),
          after_json: JSON.stringify({ status: 'published' }),
          actor_username: 'boss',
        },
      ])
    })

    it('counts a draw as questions: a paper of draws only may be published', async () => {
      const admin = await asAdmin()
      const draft = await newDraft(admin)
      await createBankQuestions(t.db, 'maths', 3, t.clock.now())
      const sections = [
        { title: { en: 'Maths' }, marks_correct: 1, marks_wrong: 0, time_limit_minutes: null, items: [] },
      ]
      sections[0]!.items = [{ draw: { topic: 'maths', count: 2 } }] as never
      expect((await call(admin, 'PUT', `/api/admin/quizzes/${draft.id}/sections/`, { sections })).status).toBe(200)
      expect((await call(admin, 'POST', `/api/admin/quizzes/${draft.id}/publish/`)).status).toBe(200)
    })

    it('schedules a live mock reminders when it is published, and drops them when it is unpublished', async () => {
      const admin = await asAdmin()
      const draft = await newDraft(admin, {
        live: { starts_at: new Date(t.clock.now() + 2 * DAY).toISOString(), join_minutes: 15 },
      })
      await addQuestion(admin, draft.id)
      const kinds = async () =>
        (await t.db.selectFrom('live_announcements').select('kind').orderBy('kind').execute()).map((row) => row.kind)
      expect(await kinds()).toEqual([])
      await call(admin, 'POST', `/api/admin/quizzes/${draft.id}/publish/`)
      expect(await kinds()).toEqual(['reminder_day', 'reminder_quarter', 'results'])
      await call(admin, 'POST', `/api/admin/quizzes/${draft.id}/unpublish/`)
      expect(await kinds()).toEqual([])
    })

    it.each(['publish', 'unpublish', 'duplicate'])(
      'answers 404 to %s of an unknown or deleted quiz',
      async (action) => {
        const admin = await asAdmin()
        const { quiz } = await createQuiz(t.database)
        expect((await call(admin, 'DELETE', `/api/admin/quizzes/${quiz.id}/`)).status).toBe(204)
        for (const id of [quiz.id, quiz.id + 100]) {
          const response = await call(admin, 'POST', `/api/admin/quizzes/${id}/${action}/`)
          expect(response.status).toBe(404)
          expect(response.body.code).toBe('not_found')
        }
      },
    )

    it('answers 404, not 500, to an id that is not a number', async () => {
      const response = await call(await asAdmin(), 'POST', '/api/admin/quizzes/abc/publish/')
      expect(response.status).toBe(404)
    })
  })

  describe('unpublishing', () => {
    it('takes a quiz nobody has started back to a draft, out of the learners’ list, in the trail', async () => {
      const admin = await asAdmin()
      const learner = await asLearner()
      const { quiz } = await createQuiz(t.database)
      expect(await learnerIds(learner)).toEqual([quiz.id])

      const response = await call(admin, 'POST', `/api/admin/quizzes/${quiz.id}/unpublish/`)
      expect(response.status).toBe(200)
      expect(response.body).toMatchObject({ id: quiz.id, status: 'draft' })
      expect(await learnerIds(learner)).toEqual([])
      expect((await call(admin, 'POST', `/api/admin/quizzes/${quiz.id}/unpublish/`)).status).toBe(200)
      const events = await t.db.selectFrom('audit_events').select(['action', 'entity_id']).execute()
      expect(events).toEqual([{ action: 'unpublish', entity_id: quiz.id }])
    })

    it('answers 409 once a learner has started it, and leaves it published', async () => {
      const admin = await asAdmin()
      const learner = await asLearner()
      const { quiz } = await createQuiz(t.database)
      expect((await call(learner, 'GET', `/api/quizzes/${quiz.id}/`)).status).toBe(200)

      const response = await call(admin, 'POST', `/api/admin/quizzes/${quiz.id}/unpublish/`)
      expect(response.status).toBe(409)
      expect(response.body).toEqual({ detail: adminMessages.unpublishAttempted, code: 'conflict' })
      expect(await learnerIds(learner)).toEqual([quiz.id])
    })
  })

  describe('duplicating', () => {
    it('copies the details and the paper as a draft, without attempts or the live schedule', async () => {
      const adminUser = await createUser(t.database, { is_admin: 1 })
      const learnerUser = await createUser(t.database, { paid_access_until: t.clock.now() + 30 * DAY })
      let admin = await bearerFor(t.tokens, adminUser)
      const fixed = await createBankQuestions(t.db, 'gk', 2, t.clock.now())
      await createBankQuestions(t.db, 'maths', 5, t.clock.now())
      const original = await newDraft(admin, {
        difficulty: 'hard',
        allowed_attempts: 1,
        is_paid_tier: true,
        shuffle_options: true,
        live: { starts_at: new Date(t.clock.now() + DAY).toISOString(), join_minutes: 20 },
      })
      const sections = [
        {
          title: { en: 'General', ne: 'सामान्य' },
          marks_correct: 2,
          marks_wrong: 0.4,
          time_limit_minutes: 20,
          items: fixed.map((id) => ({ question_id: id })),
        },
        {
          title: { en: 'Maths' },
          marks_correct: 1,
          marks_wrong: 0.25,
          time_limit_minutes: 40,
          items: [{ draw: { topic: 'maths', count: 3 } }],
        },
      ]
      const put = await call(admin, 'PUT', `/api/admin/quizzes/${original.id}/sections/`, { sections })
      expect(put.status, JSON.stringify(put.body)).toBe(200)
      expect((await call(admin, 'POST', `/api/admin/quizzes/${original.id}/publish/`)).status).toBe(200)
      t.clock.advance(DAY + 5 * 60_000)
      // Tokens live 15 minutes: signed again on the mock's day.
      admin = await bearerFor(t.tokens, adminUser)
      const learner = await bearerFor(t.tokens, learnerUser)
      expect((await call(learner, 'GET', `/api/quizzes/${original.id}/`)).status).toBe(200)

      const copy = await call(admin, 'POST', `/api/admin/quizzes/${original.id}/duplicate/`)
      expect(copy.status).toBe(201)
      const source = (await call(admin, 'GET', `/api/admin/quizzes/${original.id}/`)).body
      type PaperSection = { id: number; items: object[] }
      const withoutIds = (paper: { sections: PaperSection[] }) => paper.sections.map(({ id: _id, ...rest }) => rest)
      expect(copy.body.id).not.toBe(original.id)
      expect(copy.body).toMatchObject({
        title: source.title,
        start_time: source.start_time,
        end_time: source.end_time,
        duration_minutes: 60,
        difficulty: 'hard',
        allowed_attempts: 1,
        is_paid_tier: true,
        shuffle_options: true,
        draw_mode: 'frozen',
        question_count: 5,
        live: null,
        status: 'draft',
      })
      expect(withoutIds(copy.body)).toEqual(
        withoutIds(source).map((section) => ({
          ...section,
          // The original's frozen draw was made for its sitting; the copy draws its own.
          items: section.items.map((item) => ('draw' in item ? { ...item, drawn: [] } : item)),
        })),
      )
      expect(copy.body.questions.map((q: { id: number }) => q.id)).toEqual(fixed)
      const attempts = await t.db.selectFrom('attempts').select('quiz_id').execute()
      expect(attempts).toEqual([{ quiz_id: original.id }])
      expect(await learnerIds(learner)).not.toContain(copy.body.id)

      const event = await t.db
        .selectFrom('audit_events')
        .select(['entity_id', 'after_json'])
        .where('action', '=', 'duplicate')
        .executeTakeFirstOrThrow()
      expect(event.entity_id).toBe(copy.body.id)
      expect(JSON.parse(event.after_json!)).toMatchObject({ duplicated_from: original.id, status: 'draft' })
    })
  })

  describe('create-from-JSON', () => {
    const post = (headers: Record<string, string>, body: Record<string, unknown>) =>
      call(headers, 'POST', '/api/quizzes/create-from-json/', { title: { en: 'Pasted' }, ...body })
    const statusOf = async (headers: Record<string, string>, id: number) =>
      (await call(headers, 'GET', `/api/admin/quizzes/${id}/`)).body.status as string

    it('makes a draft with no questions when asked, and a published quiz without a status', async () => {
      const admin = await asAdmin()
      const learner = await asLearner()
      const empty = await post(admin, { status: 'draft' })
      expect(empty.status).toBe(201)
      expect(await statusOf(admin, empty.body.quiz_id)).toBe('draft')
      const emptyList = await post(admin, { status: 'draft', questions: [] })
      expect(emptyList.status).toBe(201)
      const draft = await post(admin, { status: 'draft', questions: [questionBody({ image: null })] })
      expect(draft.status).toBe(201)
      const published = await post(admin, { questions: [questionBody({ image: null })] })
      expect(await statusOf(admin, published.body.quiz_id)).toBe('published')
      expect(await learnerIds(learner)).toEqual([published.body.quiz_id])
    })

    it.each([
      ['an unknown status', { status: 'hidden', questions: [questionBody()] }, 'status'],
      ['a published quiz with no questions', { status: 'published' }, 'questions'],
      ['a published quiz with an empty list', { questions: [] }, 'questions'],
    ])('answers 400 to %s', async (_name, body, field) => {
      const response = await post(await asAdmin(), body)
      expect(response.status).toBe(400)
      expect(Object.keys(response.body.errors)).toContain(field)
    })
  })
})
