import { adminMessages, liveMessages } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { questionBody } from '../../test/fixtures/admin.fixtures'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const iso = (ms: number) => new Date(ms).toISOString()

// API.md "Live mocks": an admin schedules a quiz live in create-from-JSON or PATCH; the schedule is checked, the
// paper frozen, and the announcements follow every change.
describe.each(dialects)('scheduling live mocks on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  async function setUp() {
    const admin = await createUser(t.database, { is_admin: 1 })
    const now = t.clock.now()
    const create = (body: Record<string, unknown>) =>
      call(admin, 'POST', '/api/quizzes/create-from-json/', {
        title: { en: 'Saturday mock' },
        start_time: iso(now),
        duration_minutes: 60,
        questions: [questionBody({ image: null })],
        ...body,
      })
    const patch = (id: number, body: Record<string, unknown>) => call(admin, 'PATCH', `/api/admin/quizzes/${id}/`, body)
    const announcements = (quizId: number) =>
      t.db
        .selectFrom('live_announcements')
        .select(['kind', 'due_at', 'status'])
        .where('quiz_id', '=', quizId)
        .orderBy('due_at')
        .execute()
    return { admin, now, create, patch, announcements }
  }

  it('creates a live quiz with a frozen paper and its announcements, and shows it to the admin', async () => {
    const { admin, now, create, announcements } = await setUp()
    const startsAt = now + 2 * 24 * HOUR
    const created = await create({ live: { starts_at: iso(startsAt), join_minutes: 10 } })
    expect(created.status, created.raw).toBe(201)
    const id = created.body.quiz_id

    const quiz = (await call(admin, 'GET', `/api/admin/quizzes/${id}/`)).body
    expect(quiz).toMatchObject({ live: { starts_at: iso(startsAt), join_minutes: 10 }, draw_mode: 'frozen' })
    const listed = (await call(admin, 'GET', '/api/admin/quizzes/')).body
    expect(listed[0]).toMatchObject({ id, live: { starts_at: iso(startsAt), join_minutes: 10 } })
    expect(await announcements(id)).toEqual([
      { kind: 'reminder_day', due_at: startsAt - 24 * HOUR, status: 'pending' },
      { kind: 'reminder_quarter', due_at: startsAt - 15 * MINUTE, status: 'pending' },
      { kind: 'results', due_at: startsAt + 60 * MINUTE, status: 'pending' },
    ])

    const ordinary = await create({})
    expect((await call(admin, 'GET', `/api/admin/quizzes/${ordinary.body.quiz_id}/`)).body).toMatchObject({
      live: null,
      draw_mode: 'per_attempt',
    })
    expect(await announcements(ordinary.body.quiz_id)).toEqual([])
  })

  it('refuses a schedule before the quiz opens, a quiz closing before the common end, and bad fields, by path', async () => {
    const { now, create } = await setUp()
    const early = await create({ start_time: iso(now + HOUR), live: { starts_at: iso(now), join_minutes: 5 } })
    expect(early.status).toBe(400)
    expect(early.body.errors).toEqual({ 'live.starts_at': [liveMessages.startsBeforeQuiz] })

    const closing = await create({
      end_time: iso(now + HOUR + 59 * MINUTE),
      live: { starts_at: iso(now + HOUR), join_minutes: 5 },
    })
    expect(closing.status).toBe(400)
    expect(closing.body.errors).toEqual({ 'live.starts_at': [liveMessages.endsBeforeCommonEnd] })
    // An end exactly at the common end is enough.
    expect(
      (await create({ end_time: iso(now + 2 * HOUR), live: { starts_at: iso(now + HOUR), join_minutes: 5 } })).status,
    ).toBe(201)

    const fields = await create({ live: { starts_at: '2026-11-28T10:00:00', join_minutes: 181 } })
    expect(fields.status).toBe(400)
    expect(fields.body.errors).toEqual({
      'live.starts_at': [adminMessages.timestamp],
      'live.join_minutes': [liveMessages.joinMinutes],
    })
    const fraction = await create({ live: { starts_at: iso(now + HOUR), join_minutes: 2.5 } })
    expect(fraction.body.errors).toEqual({ 'live.join_minutes': [liveMessages.joinMinutes] })
    expect(await t.db.selectFrom('quizzes').select('id').execute()).toHaveLength(1)
  })

  it('schedules, moves and unschedules by PATCH, each change in the announcements; a live paper stays frozen', async () => {
    const { admin, now, create, patch, announcements } = await setUp()
    const id = (await create({ end_time: iso(now + 10 * HOUR) })).body.quiz_id
    const startsAt = now + 2 * HOUR

    const scheduled = await patch(id, { live: { starts_at: iso(startsAt), join_minutes: 15 } })
    expect(scheduled.status, scheduled.raw).toBe(200)
    expect(scheduled.body).toMatchObject({ live: { starts_at: iso(startsAt), join_minutes: 15 }, draw_mode: 'frozen' })
    // The day-before reminder's time has passed: it is not written.
    expect((await announcements(id)).map((row) => row.kind)).toEqual(['reminder_quarter', 'results'])

    const longer = await patch(id, { duration_minutes: 90 })
    expect(longer.status).toBe(200)
    expect((await announcements(id)).at(-1)).toEqual({
      kind: 'results',
      due_at: startsAt + 90 * MINUTE,
      status: 'pending',
    })

    const perAttempt = await patch(id, { draw_mode: 'per_attempt' })
    expect(perAttempt.status).toBe(400)
    expect(perAttempt.body.errors).toEqual({ draw_mode: [liveMessages.frozenPaper] })

    // The quiz must stay open until the common end, whichever field moves.
    const closing = await patch(id, { end_time: iso(startsAt + 89 * MINUTE) })
    expect(closing.body.errors).toEqual({ end_time: [liveMessages.endsBeforeCommonEnd] })
    const tooLong = await patch(id, { duration_minutes: 600 })
    expect(tooLong.body.errors).toEqual({ duration_minutes: [liveMessages.endsBeforeCommonEnd] })
    const beforeOpening = await patch(id, { live: { starts_at: iso(now - MINUTE), join_minutes: 15 } })
    expect(beforeOpening.body.errors).toEqual({ 'live.starts_at': [liveMessages.startsBeforeQuiz] })

    const unscheduled = await patch(id, { live: null })
    expect(unscheduled.status).toBe(200)
    expect(unscheduled.body.live).toBeNull()
    expect(await announcements(id)).toEqual([])
    const audit = (await call(admin, 'GET', '/api/admin/audit/?entity_type=quiz')).body.results
    expect(audit.some((entry: { changes?: unknown }) => JSON.stringify(entry).includes('join_minutes'))).toBe(true)
  })

  it('makes attempts started before a mock was scheduled practice, and ranked again when it is unscheduled', async () => {
    const { create, patch } = await setUp()
    const id = (await create({})).body.quiz_id
    const early = await createUser(t.database)
    expect((await call(early, 'POST', `/api/quizzes/${id}/submit/`, { answers: {} })).status).toBe(200)
    const tally = () => t.db.selectFrom('first_attempt_scores').select('learners').where('quiz_id', '=', id).execute()
    expect(await tally()).toEqual([{ learners: 1 }])

    const startsAt = t.clock.now() + HOUR
    expect((await patch(id, { live: { starts_at: iso(startsAt), join_minutes: 5 } })).status).toBe(200)
    const ranked = () => t.db.selectFrom('attempts').select('ranked').where('quiz_id', '=', id).execute()
    expect(await ranked()).toEqual([{ ranked: 0 }])
    expect(await tally()).toEqual([])

    // The early learner may still sit the mock, ranked.
    t.clock.set(startsAt)
    const started = await call(early, 'GET', `/api/quizzes/${id}/`)
    expect(started.status).toBe(200)
    expect((await call(early, 'POST', `/api/quizzes/${id}/submit/`, { answers: {} })).status).toBe(200)
    expect(await tally()).toEqual([{ learners: 1 }])

    expect((await patch(id, { live: null })).status).toBe(200)
    expect(await ranked()).toEqual([{ ranked: 1 }, { ranked: 1 }])
    expect(await tally()).toEqual([{ learners: 1 }])
  })

  it('refuses to schedule a quiz as a live mock while a learner is sitting it, and changes nothing (issue 72)', async () => {
    const { create, patch } = await setUp()
    const id = (await create({})).body.quiz_id
    const sitting = await createUser(t.database)
    expect((await call(sitting, 'GET', `/api/quizzes/${id}/`)).status).toBe(200)
    const live = { live: { starts_at: iso(t.clock.now() + HOUR), join_minutes: 5 } }
    const refused = await patch(id, live)
    expect(refused).toMatchObject({ status: 409, body: { code: 'conflict', detail: liveMessages.attemptsRunning } })
    const quiz = () => t.db.selectFrom('quizzes').select(['live_starts_at', 'draw_mode']).where('id', '=', id).execute()
    expect(await quiz()).toEqual([{ live_starts_at: null, draw_mode: 'per_attempt' }])
    // The paper stays readable to its learner as before.
    expect((await call(sitting, 'GET', `/api/quizzes/${id}/question/1/`)).status).toBe(200)

    // An attempt left past its deadline reads nothing more, and blocks nothing.
    t.clock.advance(2 * HOUR)
    const later = { live: { starts_at: iso(t.clock.now() + HOUR), join_minutes: 5 } }
    expect((await patch(id, later)).status).toBe(200)
  })
})
