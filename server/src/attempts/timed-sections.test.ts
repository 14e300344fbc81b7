import { liveMessages } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { requestsAs, storedAnswers, storedAttempts } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { questionBody } from '../../test/fixtures/admin.fixtures'

const MINUTE = 60_000

// API.md "Papers": timed sections are taken in order, each on its own clock, enforced by the server.
describe.each(dialects)('timed sections on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  /** Two sections of two questions: 10 and 20 minutes. */
  async function timedQuiz(extra: Record<string, unknown> = {}) {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const question = (n: number) => questionBody({ text: { en: `Q${n}` }, image: null })
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/quizzes/create-from-json/',
      headers,
      payload: {
        title: { en: 'Bank exam' },
        start_time: new Date(t.clock.now() - 60 * MINUTE).toISOString(),
        sections: [
          { title: { en: 'Reasoning' }, time_limit_minutes: 10, items: [question(1), question(2)] },
          { title: { en: 'English' }, time_limit_minutes: 20, marks_correct: 2, items: [question(3), question(4)] },
        ],
        ...extra,
      },
    })
    expect(response.statusCode, response.body).toBe(201)
    return response.json().quiz_id as number
  }

  const optionOf = async (questionId: number) =>
    (
      await t.db
        .selectFrom('question_options as o')
        .innerJoin('questions as q', 'q.revision_id', 'o.revision_id')
        .select('o.id')
        .where('q.id', '=', questionId)
        .orderBy('o.position')
        .executeTakeFirstOrThrow()
    ).id

  it('opens one section at a time, drops what concerns the others, and moves on early with sections/next', async () => {
    const quizId = await timedQuiz()
    const user = await createUser(t.database)
    const started = await call(user, 'GET', `/api/quizzes/${quizId}/`)
    expect(started.status).toBe(200)
    const start = t.clock.now()
    const q = started.body.questions.map((question: { id: number }) => question.id) as number[]
    expect(started.body.duration_minutes).toBe(30)
    expect(started.body.attempt.deadline).toBe(new Date(start + 30 * MINUTE).toISOString())
    expect(started.body.attempt.sections).toEqual([
      {
        title: { en: 'Reasoning', ne: '' },
        marks_correct: 1,
        marks_wrong: 0.2,
        first: 1,
        count: 2,
        time_limit_minutes: 10,
        deadline: new Date(start + 10 * MINUTE).toISOString(),
        closed: false,
      },
      {
        title: { en: 'English', ne: '' },
        marks_correct: 2,
        marks_wrong: 0.2,
        first: 3,
        count: 2,
        time_limit_minutes: 20,
        deadline: null,
        closed: false,
      },
    ])
    expect((await call(user, 'GET', `/api/quizzes/${quizId}/question/1/`)).status).toBe(200)
    const notYet = await call(user, 'GET', `/api/quizzes/${quizId}/question/3/`)
    expect([notYet.status, notYet.body.code]).toEqual([403, 'section_not_open'])

    const [a1, a3] = [await optionOf(q[0]!), await optionOf(q[2]!)]
    const saved = await call(user, 'PUT', `/api/quizzes/${quizId}/answers/`, {
      answers: { [q[0]!]: a1, [q[2]!]: a3 },
      marked: { [q[2]!]: true },
    })
    expect(saved.body).toEqual({ saved: 1, dropped: [q[2]] })

    t.clock.advance(2 * MINUTE)
    const next = await call(user, 'POST', `/api/quizzes/${quizId}/sections/next/`)
    expect(next.status).toBe(200)
    expect(next.body.sections.map((s: { closed: boolean; deadline: string | null }) => [s.closed, s.deadline])).toEqual(
      [
        [true, null],
        [false, new Date(t.clock.now() + 20 * MINUTE).toISOString()],
      ],
    )
    // The attempt's deadline is the open section's deadline: the 8 minutes left of the first are gone.
    const resumed = await call(user, 'GET', `/api/quizzes/${quizId}/`)
    expect(resumed.body.attempt.deadline).toBe(new Date(t.clock.now() + 20 * MINUTE).toISOString())
    // The closed section stores nothing afterwards.
    const closed = await call(user, 'GET', `/api/quizzes/${quizId}/question/1/`)
    expect([closed.status, closed.body.code]).toEqual([403, 'section_closed'])
    const late = await call(user, 'PUT', `/api/quizzes/${quizId}/answers/`, { answers: { [q[0]!]: null, [q[2]!]: a3 } })
    expect(late.body).toEqual({ saved: 1, dropped: [q[0]] })
    expect((await call(user, 'POST', `/api/quizzes/${quizId}/sections/next/`)).status).toBe(409)

    const attemptId = resumed.body.attempt.id as number
    expect(await storedAnswers(t.db, attemptId)).toEqual(
      [
        { question_id: q[0], option_id: a1 },
        { question_id: q[2], option_id: a3 },
      ].sort((x, y) => x.question_id! - y.question_id!),
    )
    // A submit drops answers to the closed section too: q2 right would have scored.
    const submitted = await call(user, 'POST', `/api/quizzes/${quizId}/submit/`, {
      answers: { [q[1]!]: await optionOf(q[1]!) },
    })
    expect(submitted.body).toMatchObject({ score: 3, correct: 2, unanswered: 2, max_score: 6 })
  })

  it("closes a section at its deadline with no grace, and stretches each section by the learner's extra time", async () => {
    const quizId = await timedQuiz()
    const user = await createUser(t.database, { extra_time_percent: 50 })
    const started = await call(user, 'GET', `/api/quizzes/${quizId}/`)
    const start = t.clock.now()
    expect(started.body.attempt.sections[0].deadline).toBe(new Date(start + 15 * MINUTE).toISOString())
    expect(started.body.attempt.deadline).toBe(new Date(start + 45 * MINUTE).toISOString())
    t.clock.advance(15 * MINUTE + 1)
    const later = await call(user, 'GET', `/api/quizzes/${quizId}/`)
    expect(later.body.attempt.sections.map((s: { closed: boolean }) => s.closed)).toEqual([true, false])
    expect(later.body.attempt.sections[1].deadline).toBe(new Date(start + 45 * MINUTE).toISOString())
    expect((await call(user, 'GET', `/api/quizzes/${quizId}/question/1/`)).status).toBe(403)
    expect((await call(user, 'GET', `/api/quizzes/${quizId}/question/4/`)).status).toBe(200)
    expect((await storedAttempts(t.db, user.id, quizId))[0]!.deadline).toBe(start + 45 * MINUTE)
  })

  it('refuses sections/next on a paper without timed sections', async () => {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/quizzes/create-from-json/',
      headers,
      payload: {
        title: { en: 'Untimed' },
        start_time: new Date(t.clock.now() - MINUTE).toISOString(),
        questions: [questionBody({ image: null })],
      },
    })
    const quizId = created.json().quiz_id as number
    const user = await createUser(t.database)
    const started = await call(user, 'GET', `/api/quizzes/${quizId}/`)
    expect(started.body.attempt.sections).toEqual([
      expect.objectContaining({ first: 1, count: 1, time_limit_minutes: null, deadline: null, closed: false }),
    ])
    expect((await call(user, 'POST', `/api/quizzes/${quizId}/sections/next/`)).status).toBe(409)
  })

  // docs/decisions/046: a live mock's late joiner sits every section, each shortened in proportion.
  it("gives a live mock's late joiner every section, shortened in proportion to the time left", async () => {
    const startsAt = t.clock.now() + 10 * MINUTE
    const quizId = await timedQuiz({ live: { starts_at: new Date(startsAt).toISOString(), join_minutes: 15 } })
    const user = await createUser(t.database)
    t.clock.set(startsAt + 12 * MINUTE)
    const joined = t.clock.now()
    const started = await call(user, 'GET', `/api/quizzes/${quizId}/`)
    expect(started.status).toBe(200)
    const commonEnd = new Date(startsAt + 30 * MINUTE).toISOString()
    // 18 of the paper's 30 minutes are left: 10 + 20 become 6 + 12.
    expect(started.body.attempt.deadline).toBe(commonEnd)
    expect(started.body.attempt.sections.map((s: { deadline: string | null }) => s.deadline)).toEqual([
      new Date(joined + 6 * MINUTE).toISOString(),
      null,
    ])
    t.clock.set(joined + 6 * MINUTE + 1)
    const second = await call(user, 'GET', `/api/quizzes/${quizId}/`)
    expect(
      second.body.attempt.sections.map((s: { closed: boolean; deadline: string | null }) => [s.closed, s.deadline]),
    ).toEqual([
      [true, null],
      [false, commonEnd],
    ])
    expect((await call(user, 'GET', `/api/quizzes/${quizId}/question/3/`)).status).toBe(200)
  })

  it('refuses a live join window that would close after the mock ends', async () => {
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const startsAt = new Date(t.clock.now() + 10 * MINUTE).toISOString()
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/quizzes/create-from-json/',
      headers,
      payload: {
        title: { en: 'Too long a window' },
        duration_minutes: 30,
        live: { starts_at: startsAt, join_minutes: 31 },
        questions: [questionBody({ image: null })],
      },
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().errors).toEqual({ 'live.join_minutes': [liveMessages.joinAfterEnd] })
    expect(await t.db.selectFrom('quizzes').select('id').execute()).toEqual([])
  })
})
