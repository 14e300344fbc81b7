import { describe, expect, it } from 'vitest'
import { dailyMessages } from '@quiz/contracts'
import type { UserRow } from '../db/schema'
import { setTags } from '../questions/question-tags.repository'
import { dialects } from '../../test/dialects'
import { bearerFor, createBankQuestions, createUser } from '../../test/factories'
import { requestsAs } from '../../test/learner-api'
import { secondPool, useTestApp } from '../../test/test-app'
import { createDailyJob } from './daily-jobs'
import { createDailyService } from './daily.service'
import { addDays, nepalInstant } from './nepal-days'

const silent = { error: () => {}, info: () => {} }
const MINUTE = 60_000
const settings = {
  enabled: true,
  topics: ['history'],
  tags: ['loksewa'],
  count: 5,
  duration_minutes: 10,
  marks_correct: 2,
  marks_wrong: 0.4,
  publish_at: '05:00',
}

describe.each(dialects)('the daily set on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)
  const job = () => createDailyJob(t, createDailyService(t), silent)
  const at = (day: string, hhmm: string) => t.clock.set(nepalInstant(day, hhmm))

  async function institute({ history = 5, tagged = 0, other = 5 } = {}) {
    const admin = await createUser(t.database, { is_admin: 1 })
    const learner = await createUser(t.database)
    const now = t.clock.now()
    const historyIds = await createBankQuestions(t.db, 'history', history, now)
    const taggedIds = await createBankQuestions(t.db, 'science', tagged, now)
    for (const id of taggedIds) await setTags(t.db, id, ['Loksewa'])
    const otherIds = await createBankQuestions(t.db, 'maths', other, now)
    expect((await call(admin, 'PUT', '/api/admin/daily-set/', settings)).status).toBe(200)
    return { admin, learner, historyIds, taggedIds, otherIds }
  }

  const today = (user: UserRow) => call(user, 'GET', '/api/daily/')
  const paperOf = async (quizId: number) =>
    (
      await t.db
        .selectFrom('paper_items')
        .select('question_id')
        .where('quiz_id', '=', quizId)
        .orderBy('position')
        .execute()
    ).map((row) => row.question_id!)

  async function finish(user: UserRow, quizId: number, answers: Record<number, number | null> = {}) {
    const submitted = await call(user, 'POST', `/api/quizzes/${quizId}/submit/`, { answers })
    expect(submitted.status).toBe(200)
    return submitted.body as { attempt_id: number }
  }

  it('keeps the admin’s settings, with the defaults before any, and refuses what API.md refuses', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const learner = await createUser(t.database)
    expect((await call(admin, 'GET', '/api/admin/daily-set/')).body).toEqual({
      enabled: false,
      topics: [],
      tags: [],
      count: 10,
      duration_minutes: 10,
      marks_correct: 1,
      marks_wrong: 0.2,
      publish_at: '05:00',
    })
    const saved = await call(admin, 'PUT', '/api/admin/daily-set/', settings)
    expect(saved).toMatchObject({ status: 200, body: settings })
    expect((await call(admin, 'GET', '/api/admin/daily-set/')).body).toEqual(settings)
    const refusals: [Record<string, unknown>, string][] = [
      [{ count: 4 }, 'count'],
      [{ count: 21 }, 'count'],
      [{ duration_minutes: 0 }, 'duration_minutes'],
      [{ duration_minutes: 31 }, 'duration_minutes'],
      [{ publish_at: '24:00' }, 'publish_at'],
      [{ publish_at: '5:00' }, 'publish_at'],
      [{ marks_correct: 0 }, 'marks_correct'],
      [{ marks_wrong: 0.001 }, 'marks_wrong'],
    ]
    for (const [change, field] of refusals) {
      const refused = await call(admin, 'PUT', '/api/admin/daily-set/', { ...settings, ...change })
      expect(refused.status, field).toBe(400)
      expect(Object.keys(refused.body.errors)).toEqual([field])
    }
    expect((await call(admin, 'GET', '/api/admin/daily-set/')).body).toEqual(settings)
    expect((await call(learner, 'GET', '/api/admin/daily-set/')).status).toBe(403)
    expect((await call(learner, 'PUT', '/api/admin/daily-set/', settings)).status).toBe(403)
  })

  it('publishes at publish_at Nepal time from the topics and tags, with both calendars’ dates', async () => {
    const { learner, historyIds, taggedIds } = await institute({ history: 3, tagged: 2 })
    // 04:59 in Nepal on 28 November 2026 (23:14 UTC on the 27th): not yet.
    at('2026-11-28', '04:59')
    expect((await today(learner)).body).toEqual({
      date: { ad: '2026-11-28', bs: '2083-08-12' },
      quiz_id: null,
      published: false,
      question_count: null,
      duration_minutes: null,
      attempted: null,
      streak: { current: 0, best: 0, freezes_left: 2, today_done: false },
    })
    at('2026-11-28', '05:00')
    expect(await job().runNow()).toBe(1)
    const day = (await today(learner)).body
    expect(day).toMatchObject({ published: true, question_count: 5, duration_minutes: 10, attempted: null })
    expect((await paperOf(day.quiz_id)).sort()).toEqual([...historyIds, ...taggedIds].sort())
    // Listed with the other quizzes today, one attempt, marks as set.
    const quiz = await t.db.selectFrom('quizzes').selectAll().where('id', '=', day.quiz_id).executeTakeFirstOrThrow()
    expect(quiz).toMatchObject({ allowed_attempts: 1, daily_date: '2026-11-28', status: 'published' })
    expect(quiz.end_time).toBe(nepalInstant('2026-11-29', '00:00'))
    const list = await call(learner, 'GET', '/api/quizzes/')
    expect(JSON.stringify(list.body)).toContain(`"id":${day.quiz_id}`)
    // A second pass publishes nothing more.
    expect(await job().runNow()).toBe(0)
  })

  it('avoids the last 30 days’ questions while the bank allows, then takes those used longest ago', async () => {
    const { learner, historyIds } = await institute({ history: 10, other: 0 })
    const drawn: number[][] = []
    for (const day of ['2026-11-28', '2026-11-29', '2026-11-30']) {
      at(day, '05:00')
      const { quiz_id } = (await today(learner)).body
      drawn.push(await paperOf(quiz_id))
    }
    expect(new Set([...drawn[0]!, ...drawn[1]!]).size).toBe(10)
    // The third day's bank has nothing unused: it takes the first day's, used longest ago.
    expect(drawn[2]!.sort()).toEqual(drawn[0]!.sort())
    expect(historyIds.length).toBe(10)
  })

  it('publishes nothing when the set is off or the bank is too small', async () => {
    const { admin, learner } = await institute({ history: 4, other: 0 })
    at('2026-11-28', '06:00')
    expect((await today(learner)).body.published).toBe(false)
    await call(admin, 'PUT', '/api/admin/daily-set/', { ...settings, enabled: false, topics: [], tags: [] })
    expect(await job().runNow()).toBe(0)
    expect((await today(learner)).body.published).toBe(false)
  })

  it('takes a day fixed by hand, and refuses a wrong count, a foreign question, a past or published day', async () => {
    const { admin, learner, otherIds, historyIds } = await institute()
    at('2026-11-28', '04:00')
    const put = (day: string, ids: unknown) =>
      call(admin, 'PUT', `/api/admin/daily-set/days/${day}/`, { question_ids: ids })
    const fixed = await put('2026-11-28', otherIds)
    expect(fixed.status).toBe(200)
    expect(fixed.body).toMatchObject({ date: { ad: '2026-11-28' }, published: false, fixed: true, quiz_id: null })
    expect(fixed.body.questions.map((q: { id: number }) => q.id)).toEqual(otherIds)
    expect((await put('2026-11-28', otherIds.slice(0, 4))).body.errors).toEqual({
      question_ids: [dailyMessages.questionCount],
    })
    expect((await put('2026-11-28', [...otherIds.slice(0, 4), otherIds[0]])).body.errors).toEqual({
      question_ids: [dailyMessages.repeated],
    })
    expect((await put('2026-11-28', [...otherIds.slice(0, 4), 999_999])).body.errors).toEqual({
      'question_ids.4': [dailyMessages.unknownQuestion],
    })
    const past = await put('2026-11-27', historyIds)
    expect(past.status).toBe(400)
    expect(past.body.errors).toEqual({ date: [dailyMessages.dayOver] })
    expect((await put('2026-13-01', historyIds)).status).toBe(400)
    expect(
      (await call(learner, 'PUT', '/api/admin/daily-set/days/2026-11-28/', { question_ids: historyIds })).status,
    ).toBe(403)
    at('2026-11-28', '05:00')
    const { quiz_id } = (await today(learner)).body
    expect(await paperOf(quiz_id)).toEqual(otherIds)
    const refused = await put('2026-11-28', historyIds)
    expect(refused).toMatchObject({ status: 409, body: { code: 'day_published', detail: dailyMessages.dayPublished } })
    expect(await paperOf(quiz_id)).toEqual(otherIds)
  })

  it('lists days with their attempts and mean, and refuses a bad range', async () => {
    const { admin, learner } = await institute()
    const other = await createUser(t.database)
    at('2026-11-28', '05:00')
    const { quiz_id } = (await today(learner)).body
    const paper = await paperOf(quiz_id)
    const right = await t.db
      .selectFrom('question_options')
      .innerJoin('questions', 'questions.revision_id', 'question_options.revision_id')
      .select(['questions.id as question', 'question_options.id as option'])
      .where('questions.id', 'in', paper)
      .where('question_options.is_correct', '=', 1)
      .execute()
    await finish(learner, quiz_id, Object.fromEntries(right.map((row) => [row.question, row.option])))
    await finish(other, quiz_id)
    const days = await call(admin, 'GET', '/api/admin/daily-set/days/?from=2026-11-27&to=2026-11-29')
    expect(days.status).toBe(200)
    expect(days.body.map((day: { date: { ad: string } }) => day.date.ad)).toEqual([
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ])
    expect(days.body[1]).toMatchObject({ published: true, quiz_id, attempts: 2, mean: 5 })
    expect(days.body[0]).toMatchObject({ published: false, attempts: 0, mean: null, questions: [] })
    expect((await call(admin, 'GET', '/api/admin/daily-set/days/?from=2026-11-29&to=2026-11-27')).status).toBe(400)
    expect((await call(admin, 'GET', '/api/admin/daily-set/days/?from=2026-01-01&to=2026-12-31')).status).toBe(400)
    expect((await call(admin, 'GET', '/api/admin/daily-set/days/?from=nope&to=2026-12-31')).status).toBe(400)
    expect((await call(learner, 'GET', '/api/admin/daily-set/days/?from=2026-11-27&to=2026-11-29')).status).toBe(403)
    // The day's leaderboard, over first attempts.
    const board = await call(learner, 'GET', '/api/daily/2026-11-28/leaderboard/')
    expect(board.status).toBe(200)
    expect(board.body).toMatchObject({ participants: 2, me: { rank: 1, score: 10 } })
    expect(board.body.top.map((entry: { score: number }) => entry.score)).toEqual([10, 0])
    expect((await call(learner, 'GET', '/api/daily/2026-11-27/leaderboard/')).status).toBe(404)
    expect((await call(learner, 'GET', '/api/daily/nope/leaderboard/')).status).toBe(404)
  })

  it('gives one attempt, shows it done with its score, and builds the streak day by day', async () => {
    const { learner } = await institute()
    at('2026-11-28', '05:00')
    const first = (await today(learner)).body
    at('2026-11-28', '23:58')
    const { attempt_id } = await finish(learner, first.quiz_id)
    const done = (await today(learner)).body
    expect(done.attempted).toEqual({ attempt_id, score: 0, max_score: 10 })
    expect(done.streak).toEqual({ current: 1, best: 1, freezes_left: 2, today_done: true })
    const again = await call(learner, 'GET', `/api/quizzes/${first.quiz_id}/`)
    expect(again.status).toBe(403)
    expect(again.body.code).toBe('no_attempts_left')
    // The next day: yesterday's set has left the list, today's is there, the streak holds until midnight.
    at('2026-11-29', '06:00')
    const next = (await today(learner)).body
    expect(next.streak).toEqual({ current: 1, best: 1, freezes_left: 2, today_done: false })
    const list = JSON.stringify((await call(learner, 'GET', '/api/quizzes/')).body)
    expect(list).not.toContain(`"id":${first.quiz_id},`)
    expect(list).toContain(`"id":${next.quiz_id},`)
    // Missed the 29th; on the 30th a freeze keeps the streak.
    at('2026-11-30', '07:00')
    const third = (await today(learner)).body
    await finish(learner, third.quiz_id)
    expect((await today(learner)).body.streak).toEqual({ current: 2, best: 2, freezes_left: 1, today_done: true })
  })

  it('publishes a day once when two processes’ passes meet, and on time after a restart', async () => {
    const { learner } = await institute()
    // No process ran at 05:00; the first pass after the start, at 09:00, publishes it.
    at('2026-11-28', '09:00')
    const other = dialect === 'postgres' ? await secondPool(t) : t.database
    try {
      const second = createDailyJob({ ...t, database: other }, createDailyService({ ...t, database: other }), silent)
      const results = await Promise.all([job().runNow(), second.runNow(), job().runNow()])
      expect(results.reduce((a, b) => a + b, 0)).toBe(1)
    } finally {
      if (other !== t.database) await other.destroy()
    }
    const quizzes = await t.db.selectFrom('quizzes').select('id').where('daily_date', '=', '2026-11-28').execute()
    expect(quizzes).toHaveLength(1)
    expect((await today(learner)).body.quiz_id).toBe(quizzes[0]!.id)
    // The loop's first pass at start does the same.
    at(addDays('2026-11-28', 1), '05:01')
    const loop = createDailyJob(
      { ...t, config: { ...t.config, dailyIntervalMs: 60 * MINUTE } },
      createDailyService(t),
      silent,
    )
    loop.start()
    await expect.poll(async () => (await today(learner)).body.published).toBe(true)
    await loop.stop()
  })

  it('reminds a learner once a day at their hour while the set is not done', async () => {
    const { learner } = await institute()
    const done = await createUser(t.database)
    const unset = await createUser(t.database)
    for (const user of [learner, done])
      expect(
        (
          await t.app.inject({
            method: 'PUT',
            url: '/api/users/profile/',
            headers: await headersOf(user),
            payload: form({ daily_reminder: '07:30' }),
          })
        ).statusCode,
      ).toBe(200)
    expect((await call(learner, 'GET', '/api/users/profile/')).body.daily_reminder).toBe('07:30')
    at('2026-11-28', '05:00')
    const { quiz_id } = (await today(done)).body
    await finish(done, quiz_id)
    const reminders = () =>
      t.db.selectFrom('notifications').select(['user_id', 'kind']).where('kind', '=', 'daily_reminder').execute()
    at('2026-11-28', '07:29')
    await job().runNow()
    expect(await reminders()).toEqual([])
    at('2026-11-28', '07:30')
    expect(await job().runNow()).toBe(1)
    at('2026-11-28', '09:00')
    expect(await job().runNow()).toBe(0)
    expect(await reminders()).toEqual([{ user_id: learner.id, kind: 'daily_reminder' }])
    expect(unset.id).toBeGreaterThan(0)
    // Off again: no reminder the next day.
    await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile/',
      headers: await headersOf(learner),
      payload: form({ daily_reminder: '' }),
    })
    at('2026-11-29', '08:00')
    await job().runNow()
    expect(await reminders()).toEqual([
      { user_id: learner.id, kind: 'daily_reminder' },
      { user_id: done.id, kind: 'daily_reminder' },
    ])
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile/',
      headers: await headersOf(learner),
      payload: form({ daily_reminder: '7:30' }),
    })
    expect(refused.statusCode).toBe(400)
  })

  const BOUNDARY = 'daily-boundary'
  function form(fields: Record<string, string>) {
    return Object.entries(fields)
      .map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('')
      .concat(`--${BOUNDARY}--\r\n`)
  }
  async function headersOf(user: UserRow) {
    return {
      ...(await bearerFor(t.tokens, user)),
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    }
  }
})
