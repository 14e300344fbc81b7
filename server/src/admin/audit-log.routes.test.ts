import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser, type TokenRoles } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { questionBody, TRIANGLE_SVG } from '../../test/fixtures/admin.fixtures'

const HOUR = 3600_000

describe.each(dialects)('the audit trail on %s', (dialect) => {
  const t = useTestApp(dialect)

  const headersOf = (user: TokenRoles) => bearerFor(t.tokens, user)

  async function call(headers: Record<string, string>, method: string, url: string, payload?: unknown) {
    return t.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    })
  }

  async function admin(username = 'boss') {
    const user = await createUser(t.database, { is_admin: 1, username })
    return { user, headers: await headersOf(user) }
  }

  const events = () => t.db.selectFrom('audit_events').selectAll().orderBy('id').execute()
  const trail = async (headers: Record<string, string>, query = '') => {
    const response = await call(headers, 'GET', `/api/admin/audit/${query}`)
    expect(response.statusCode).toBe(200)
    return response.json()
  }

  describe('who may read it', () => {
    it('answers 401 without a token', async () => {
      const response = await call({}, 'GET', '/api/admin/audit/')
      expect(response.statusCode).toBe(401)
      expect(response.json().code).toBe('not_authenticated')
    })

    it('answers 403 to a learner, even with bad filters', async () => {
      const learner = await createUser(t.database)
      const response = await call(await headersOf(learner), 'GET', '/api/admin/audit/?page=0&action=burn')
      expect(response.statusCode).toBe(403)
      expect(response.json().code).toBe('permission_denied')
    })

    it.each([
      ['?entity_type=attempt', 'entity_type'],
      ['?action=burn', 'action'],
      ['?entity_id=abc', 'entity_id'],
      ['?entity_id=0', 'entity_id'],
      ['?from=yesterday', 'from'],
      ['?to=2026-11-22T07:00:00', 'to'],
      ['?from=2026-11-23T00:00:00Z&to=2026-11-22T00:00:00Z', 'to'],
      ['?page=0', 'page'],
      ['?page_size=501', 'page_size'],
    ])('answers 400 to %s with the field named', async (query, field) => {
      const { headers } = await admin()
      const response = await call(headers, 'GET', `/api/admin/audit/${query}`)
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({ code: 'validation_error', errors: { [field]: expect.any(Array) } })
    })

    it('has no route that edits or deletes an event', async () => {
      const { headers } = await admin()
      await call(headers, 'PATCH', `/api/admin/users/${(await createUser(t.database)).id}/`, { extra_time_percent: 10 })
      const [event] = await events()
      for (const method of ['PUT', 'PATCH', 'DELETE']) {
        const response = await call(headers, method, `/api/admin/audit/${event!.id}/`, {})
        expect(response.statusCode).toBe(404)
      }
      expect(await events()).toHaveLength(1)
    })
  })

  describe('every admin write leaves one event with who, when, what, before and after', () => {
    it('a quiz edit: only the changed fields, as the admin API shows them', async () => {
      const { user, headers } = await admin()
      const { quiz } = await createQuiz(t.database, { title_en: 'Physics', duration_minutes: 90 })
      const response = await call(headers, 'PATCH', `/api/admin/quizzes/${quiz.id}/`, {
        duration_minutes: 60,
        is_paid_tier: true,
        difficulty: 'medium',
      })
      expect(response.statusCode).toBe(200)
      const body = await trail(headers)
      expect(body).toEqual({
        count: 1,
        results: [
          {
            id: expect.any(Number),
            at: new Date(t.clock.now()).toISOString(),
            actor: { id: user.id, username: 'boss' },
            client_address: '127.0.0.1',
            action: 'update',
            entity_type: 'quiz',
            entity_id: quiz.id,
            entity_label: 'Physics',
            before: { duration_minutes: 90, is_paid_tier: false },
            after: { duration_minutes: 60, is_paid_tier: true },
          },
        ],
      })
    })

    it('quiz create from JSON and delete, question add, edit and delete', async () => {
      const { headers } = await admin()
      const created = await call(headers, 'POST', '/api/quizzes/create-from-json/', {
        title: { en: 'Chemistry' },
        duration_minutes: 30,
        questions: [questionBody()],
      })
      expect(created.statusCode).toBe(201)
      const quizId = created.json().quiz_id as number
      const added = await call(headers, 'POST', `/api/admin/quizzes/${quizId}/questions/`, questionBody())
      const questionId = added.json().id as number
      await call(
        headers,
        'PUT',
        `/api/admin/quizzes/${quizId}/questions/${questionId}/`,
        questionBody({ topic: 'shapes', image: null }),
      )
      await call(headers, 'DELETE', `/api/admin/quizzes/${quizId}/questions/${questionId}/`)
      await call(headers, 'DELETE', `/api/admin/quizzes/${quizId}/`)

      const { results } = await trail(headers)
      expect(results.map((e: { action: string; entity_type: string }) => `${e.entity_type} ${e.action}`)).toEqual([
        'quiz delete',
        'question delete',
        'question update',
        'question create',
        'quiz create',
      ])
      const [quizDelete, questionDelete, questionUpdate, questionCreate, quizCreate] = results
      expect(quizCreate).toMatchObject({
        entity_id: quizId,
        entity_label: 'Chemistry',
        before: null,
        after: { title: { en: 'Chemistry', ne: '' }, duration_minutes: 30, question_count: 1 },
      })
      expect(questionCreate).toMatchObject({
        entity_id: questionId,
        entity_label: 'How many sides has a triangle?',
        after: { quiz_id: quizId, topic: 'geometry', options: expect.any(Array) },
      })
      // An SVG is named by its size and digest, never copied into the trail.
      expect(JSON.stringify(results)).not.toContain('<svg')
      expect(questionCreate.after.image.svg).toMatch(
        new RegExp(`^${Buffer.byteLength(TRIANGLE_SVG)} bytes, sha256 [0-9a-f]{16}$`),
      )
      expect(questionUpdate.before).toEqual({ topic: 'geometry', image: questionCreate.after.image })
      expect(questionUpdate.after).toEqual({ topic: 'shapes', image: null })
      expect(questionDelete).toMatchObject({ before: { topic: 'shapes', quiz_id: quizId }, after: null })
      expect(quizDelete).toMatchObject({ entity_id: quizId, before: { title: { en: 'Chemistry', ne: '' } } })
    })

    it("a learner's paid access and extra time, and plans", async () => {
      const { headers } = await admin()
      const learner = await createUser(t.database, { username: 'sita' })
      await call(headers, 'PATCH', `/api/admin/users/${learner.id}/`, {
        has_paid_access: true,
        paid_access_until: '2027-01-01T00:00:00Z',
        extra_time_percent: 25,
      })
      const plan = await call(headers, 'POST', '/api/admin/plans/', {
        name: { en: 'One month' },
        price_paisa: 50000,
        days: 30,
        active: true,
      })
      await call(headers, 'PATCH', `/api/admin/plans/${plan.json().id}/`, { price_paisa: 45000 })

      const { results } = await trail(headers)
      expect(results).toMatchObject([
        {
          action: 'update',
          entity_type: 'plan',
          entity_label: 'One month',
          before: { price_paisa: 50000 },
          after: { price_paisa: 45000 },
        },
        {
          action: 'create',
          entity_type: 'plan',
          after: { name: { en: 'One month', ne: '' }, price_paisa: 50000, days: 30, active: true },
        },
        {
          action: 'update',
          entity_type: 'user',
          entity_id: learner.id,
          entity_label: 'sita',
          before: { has_paid_access: false, paid_access_until: null, extra_time_percent: 0 },
          after: { has_paid_access: true, paid_access_until: '2027-01-01T00:00:00.000Z', extra_time_percent: 25 },
        },
      ])
    })
  })

  describe('a refused write leaves no event', () => {
    it.each([
      [
        'an end before the start',
        'PATCH',
        (id: number) => `/api/admin/quizzes/${id}/`,
        { end_time: '2020-01-01T00:00:00Z' },
        400,
      ],
      ['an unknown quiz', 'PATCH', () => '/api/admin/quizzes/999/', { duration_minutes: 5 }, 404],
      ['a deleted question', 'DELETE', (id: number) => `/api/admin/quizzes/${id}/questions/999/`, undefined, 404],
      ['an unknown learner', 'PATCH', () => '/api/admin/users/999/', { extra_time_percent: 5 }, 404],
      ['extra time out of range', 'PATCH', () => '/api/admin/users/1/', { extra_time_percent: 400 }, 400],
      ['an unknown plan', 'PATCH', () => '/api/admin/plans/999/', { days: 5 }, 404],
      ['a plan too cheap', 'POST', () => '/api/admin/plans/', { name: { en: 'x' }, price_paisa: 1, days: 5 }, 400],
    ])('%s', async (_name, method, url, payload, status) => {
      const { headers } = await admin()
      const { quiz } = await createQuiz(t.database, { start_time: t.clock.now() - HOUR })
      const response = await call(headers, method, url(quiz.id), payload)
      expect(response.statusCode).toBe(status)
      expect(await events()).toEqual([])
    })

    it("a learner's attempt at an admin write", async () => {
      const learner = await createUser(t.database)
      const { quiz } = await createQuiz(t.database)
      const response = await call(await headersOf(learner), 'PATCH', `/api/admin/quizzes/${quiz.id}/`, {
        duration_minutes: 5,
      })
      expect(response.statusCode).toBe(403)
      expect(await events()).toEqual([])
    })

    it('and a change whose event cannot be written is not made (one transaction)', async () => {
      const { headers } = await admin()
      const { quiz } = await createQuiz(t.database, { duration_minutes: 90 })
      // Rename the table away so the event's insert fails after the quiz's update has run in the same transaction.
      await sql`alter table audit_events rename to audit_events_away`.execute(t.db)
      try {
        const response = await call(headers, 'PATCH', `/api/admin/quizzes/${quiz.id}/`, { duration_minutes: 5 })
        expect(response.statusCode).toBe(500)
      } finally {
        await sql`alter table audit_events_away rename to audit_events`.execute(t.db)
      }
      const row = await t.db
        .selectFrom('quizzes')
        .select('duration_minutes')
        .where('id', '=', quiz.id)
        .executeTakeFirst()
      expect(row?.duration_minutes).toBe(90)
      expect(await events()).toEqual([])
    })
  })

  it('is append-only in the database itself: UPDATE and DELETE fail', async () => {
    const { headers } = await admin()
    const learner = await createUser(t.database)
    await call(headers, 'PATCH', `/api/admin/users/${learner.id}/`, { extra_time_percent: 10 })
    await expect(sql`update audit_events set actor_username = 'someone else'`.execute(t.db)).rejects.toThrow(
      /append-only/,
    )
    await expect(sql`delete from audit_events`.execute(t.db)).rejects.toThrow(/append-only/)
    expect(await events()).toMatchObject([{ actor_username: 'boss' }])
  })

  describe('filters and pages', () => {
    async function history() {
      const boss = await admin('boss')
      const other = await admin('Deputy')
      const sita = await createUser(t.database, { username: 'sita' })
      const { quiz } = await createQuiz(t.database)
      await call(boss.headers, 'PATCH', `/api/admin/users/${sita.id}/`, { extra_time_percent: 10 })
      t.clock.advance(HOUR)
      await call(await headersOf(other.user), 'PATCH', `/api/admin/quizzes/${quiz.id}/`, { duration_minutes: 10 })
      t.clock.advance(HOUR)
      await call(await headersOf(boss.user), 'PATCH', `/api/admin/quizzes/${quiz.id}/`, { duration_minutes: 20 })
      t.clock.advance(HOUR)
      await call(await headersOf(boss.user), 'DELETE', `/api/admin/quizzes/${quiz.id}/`)
      // Access tokens live 15 minutes: the reader signs in after the history was made.
      return { reader: await headersOf(boss.user), sita, quiz }
    }
    const ids = (body: { results: { entity_type: string; action: string; after: unknown }[] }) =>
      body.results.map((e) => `${e.entity_type} ${e.action}`)

    it('newest first, by actor (ignoring case), kind, id, action and time range', async () => {
      const { reader, sita, quiz } = await history()
      const start = t.clock.now() - 3 * HOUR
      expect(ids(await trail(reader))).toEqual(['quiz delete', 'quiz update', 'quiz update', 'user update'])
      expect(ids(await trail(reader, '?actor=deputy'))).toEqual(['quiz update'])
      expect(ids(await trail(reader, '?actor=nobody'))).toEqual([])
      expect(ids(await trail(reader, '?entity_type=user'))).toEqual(['user update'])
      expect(ids(await trail(reader, `?entity_type=user&entity_id=${sita.id}`))).toEqual(['user update'])
      expect(ids(await trail(reader, `?entity_type=quiz&entity_id=${quiz.id}&action=update`))).toEqual([
        'quiz update',
        'quiz update',
      ])
      const from = new Date(start + HOUR).toISOString()
      const to = new Date(start + 2 * HOUR).toISOString()
      // From is inclusive, to exclusive: exactly the deputy's edit an hour after the first event.
      const window = await trail(reader, `?from=${from}&to=${to}`)
      expect(window).toMatchObject({ count: 1, results: [{ actor: { username: 'Deputy' } }] })
      // Any offset is accepted: 07:00Z is 12:45 in Nepal.
      expect((await trail(reader, `?to=${encodeURIComponent('2026-11-22T12:45:00+05:45')}`)).count).toBe(0)
    })

    it('pages with page and page_size; count is the total', async () => {
      const { reader } = await history()
      const second = await trail(reader, '?page=2&page_size=3')
      expect(second.count).toBe(4)
      expect(ids(second)).toEqual(['user update'])
      expect((await trail(reader, '?page=9&page_size=3')).results).toEqual([])
    })
  })
})
