import { liveMessages } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { openQuiz, requestsAs, storedAttempts } from '../../test/learner-api'
import { mockEnderOn } from '../../test/mock-ender'
import { changeKey, openLiveMock } from '../../test/live-mock'
import { useTestApp } from '../../test/test-app'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const GRACE = 120_000
const iso = (ms: number) => new Date(ms).toISOString()

// API.md "Live mocks": one paper for everyone at one time, a join window, a common end and a leaderboard.
describe.each(dialects)('live mocks on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)
  /** A request whose success has no body (201 and 204 of registering): the body only when there is one. */
  const send = async (user: UserRow, method: 'POST' | 'DELETE', url: string) => {
    const response = await t.app.inject({ method, url, headers: await bearerFor(t.tokens, user) })
    return { status: response.statusCode, body: response.body ? response.json() : null }
  }

  const liveMock = (overrides: Record<string, unknown> = {}) => openLiveMock(t, overrides)

  describe('starting and submitting', () => {
    it('refuses a start or a submit before starts_at with 403 live_not_started, and makes no attempt', async () => {
      const mock = await liveMock()
      const learner = await createUser(t.database)
      t.clock.set(mock.startsAt - 1)

      const started = await mock.start(learner)
      expect(started.status).toBe(403)
      expect(started.body).toEqual({ detail: liveMessages.notStarted, code: 'live_not_started' })
      const submitted = await mock.submit(learner, 'AAA')
      expect(submitted.status).toBe(403)
      expect(submitted.body.code).toBe('live_not_started')
      expect(await storedAttempts(t.db, learner.id, mock.id)).toEqual([])
      expect(await mock.listed(learner)).toMatchObject({ can_start: false, live: { status: 'upcoming' } })
    })

    it('ranks starts from exactly starts_at to the last ms of the join window, all ending at the common end', async () => {
      const mock = await liveMock()
      const [first, last, extra, late] = [
        await createUser(t.database),
        await createUser(t.database),
        await createUser(t.database, { extra_time_percent: 50 }),
        await createUser(t.database),
      ]

      t.clock.set(mock.startsAt)
      const atStart = await mock.start(first)
      expect(atStart.status).toBe(200)
      expect(atStart.body.attempt.deadline).toBe(iso(mock.ends))
      expect(atStart.body.attempt.remaining_seconds).toBe(30 * 60)
      expect(await mock.listed(first)).toMatchObject({ has_attempt_in_progress: true, can_start: true })

      // Extra time stretches the duration from the common start: 30 minutes × 1.5.
      t.clock.set(mock.startsAt + MINUTE)
      expect((await mock.start(extra)).body.attempt.deadline).toBe(iso(mock.startsAt + 45 * MINUTE))

      // A late joiner has less time.
      t.clock.set(mock.joinEnds - 1)
      const atLastMs = await mock.start(last)
      expect(atLastMs.status).toBe(200)
      expect(atLastMs.body.attempt.deadline).toBe(iso(mock.ends))
      expect(atLastMs.body.attempt.remaining_seconds).toBe(Math.floor((mock.ends - mock.joinEnds + 1) / 1000))
      expect(atStart.body.attempt.ranked).toBe(true)
      // Resuming inside the window is the same attempt.
      expect((await mock.start(first)).body.attempt.id).toBe(atStart.body.attempt.id)

      t.clock.set(mock.joinEnds)
      const closed = await mock.start(late)
      expect(closed.status).toBe(409)
      expect(closed.body.detail).toBe(liveMessages.joinClosed)
      expect((await mock.submit(late, 'AAA')).status).toBe(409)
      expect(await storedAttempts(t.db, late.id, mock.id)).toEqual([])
      expect(await mock.listed(late)).toMatchObject({ can_start: false, live: { status: 'running' } })
      // One already sitting may go on until the common end.
      expect((await mock.start(first)).status).toBe(200)
      expect(await mock.listed(first)).toMatchObject({ can_start: true })

      const rows = await t.db.selectFrom('attempts').select(['ranked']).where('quiz_id', '=', mock.id).execute()
      expect(rows.map((row) => row.ranked)).toEqual([1, 1, 1])
    })

    it('refuses a second start inside the join window with 409, also when the first was submitted', async () => {
      const mock = await liveMock()
      const learner = await createUser(t.database)
      t.clock.set(mock.startsAt + MINUTE)
      expect((await mock.start(learner)).status).toBe(200)
      expect((await mock.submit(learner, 'AAA')).status).toBe(200)
      expect(await mock.listed(learner)).toMatchObject({ can_start: false, remaining_attempts: 2 })

      const again = await mock.start(learner)
      expect(again.status).toBe(409)
      expect(again.body.detail).toBe(liveMessages.alreadyStarted)
      expect((await mock.submit(learner, 'AAA')).status).toBe(409)
      expect(await storedAttempts(t.db, learner.id, mock.id)).toHaveLength(1)
    })

    it('carries ranked on every attempt payload: an ordinary quiz start and submit, a submit with no start', async () => {
      const ordinary = await openQuiz(t, {}, { questionCount: 3 })
      const learner = await createUser(t.database)
      const started = await call(learner, 'GET', `/api/quizzes/${ordinary.quiz.id}/`)
      expect(started.body.attempt.ranked).toBe(true)
      const submitted = await call(learner, 'POST', `/api/quizzes/${ordinary.quiz.id}/submit/`, { answers: {} })
      expect(submitted.body).toMatchObject({ attempt_id: started.body.attempt.id, ranked: true })

      // A live mock's practice attempt created and finished by one submit once its key is out is not ranked.
      const mock = await liveMock()
      t.clock.set(mock.ends + GRACE + MINUTE)
      const practised = await mock.submit(learner, 'AAA')
      expect(practised.status).toBe(200)
      expect(practised.body).toMatchObject({ score: 3, ranked: false })
    })

    it('starts practice after the common end: ranked false, its own full time, out of ranks and percentiles', async () => {
      const mock = await liveMock()
      const [ram, sita, hari] = [
        await createUser(t.database),
        await createUser(t.database),
        await createUser(t.database),
      ]
      t.clock.set(mock.startsAt)
      expect((await mock.start(ram)).status).toBe(200)
      expect((await mock.start(sita)).status).toBe(200)
      const ramRanked = await mock.submit(ram, 'AA-')
      const sitaRanked = await mock.submit(sita, 'A--')

      // Once the common end plus grace has passed (the key is out, issue 54), Hari, who missed the mock, practises
      // it; Ram sits it again.
      const practiceFrom = mock.ends + GRACE + 1
      t.clock.set(practiceFrom)
      const practice = await mock.start(hari)
      expect(practice.status).toBe(200)
      expect(practice.body.attempt.ranked).toBe(false)
      expect(practice.body.attempt.deadline).toBe(iso(practiceFrom + 30 * MINUTE))
      const hariPractice = await mock.submit(hari, 'AAA')
      expect(hariPractice.body).toMatchObject({ score: 3, ranked: false })
      expect(ramRanked.body.ranked).toBe(true)
      expect((await mock.start(ram)).status).toBe(200)
      const ramPractice = await mock.submit(ram, 'AAA')
      const rows = await t.db
        .selectFrom('attempts')
        .select(['user_id', 'ranked'])
        .where('quiz_id', '=', mock.id)
        .orderBy('id')
        .execute()
      expect(rows).toEqual([
        { user_id: ram.id, ranked: 1 },
        { user_id: sita.id, ranked: 1 },
        { user_id: hari.id, ranked: 0 },
        { user_id: ram.id, ranked: 0 },
      ])

      const board = await mock.board(hari)
      expect(board.body).toMatchObject({ participants: 2, me: null })
      expect(board.body.top.map((entry: { score: number }) => entry.score)).toEqual([2, 1])

      // Hari's practice report ranks 3 against the two ranked attempts without counting itself.
      const hariReport = (await call(hari, 'GET', `/api/results/${hariPractice.body.attempt_id}/`)).body
      expect(hariReport).toMatchObject({ ranked: false, quiz: { id: mock.id, live: true } })
      expect(hariReport.analysis).toMatchObject({ participants: 2, rank: 1, percentile: 100 })
      const ramReport = (await call(ram, 'GET', `/api/results/${ramRanked.body.attempt_id}/`)).body
      expect(ramReport).toMatchObject({ ranked: true, quiz: { live: true } })
      expect(ramReport.analysis).toMatchObject({ participants: 2, rank: 1, percentile: 100 })
      const sitaReport = (await call(sita, 'GET', `/api/results/${sitaRanked.body.attempt_id}/`)).body
      expect(sitaReport.analysis).toMatchObject({ participants: 2, rank: 2, percentile: 0 })
      const ramPracticeReport = (await call(ram, 'GET', `/api/results/${ramPractice.body.attempt_id}/`)).body
      expect(ramPracticeReport.analysis).toMatchObject({ participants: 2, rank: 1, percentile: 100 })

      const results = (await call(ram, 'GET', '/api/results/')).body
      expect(results[0].attempts.map((attempt: { ranked: boolean }) => attempt.ranked)).toEqual([true, false])

      const admin = await createUser(t.database, { is_admin: 1 })
      const statistics = await call(admin, 'GET', `/api/admin/quizzes/${mock.id}/statistics/?which=first`)
      expect(statistics.body.attempts).toBe(2)
      const firsts = await call(admin, 'GET', `/api/admin/quizzes/${mock.id}/attempts/?which=first`)
      expect(firsts.body.results.map((row: { attempt_id: number }) => row.attempt_id)).toEqual([
        ramRanked.body.attempt_id,
        sitaRanked.body.attempt_id,
      ])
    })
  })

  describe('registering', () => {
    it('registers (again 201) and unregisters (again 204) until the join window closes', async () => {
      const mock = await liveMock()
      const learner = await createUser(t.database)
      const register = () => send(learner, 'POST', `/api/quizzes/${mock.id}/register/`)
      const unregister = () => send(learner, 'DELETE', `/api/quizzes/${mock.id}/register/`)

      expect(await mock.listed(learner)).toMatchObject({ registered: false })
      expect((await register()).status).toBe(201)
      expect((await register()).status).toBe(201)
      expect(await mock.listed(learner)).toMatchObject({ registered: true })
      expect(await t.db.selectFrom('live_registrations').selectAll().execute()).toHaveLength(1)
      expect((await unregister()).status).toBe(204)
      expect((await unregister()).status).toBe(204)
      expect(await mock.listed(learner)).toMatchObject({ registered: false })

      t.clock.set(mock.joinEnds - 1)
      expect((await register()).status).toBe(201)
      t.clock.set(mock.joinEnds)
      const late = await register()
      expect(late.status).toBe(409)
      expect(late.body.detail).toBe(liveMessages.joinClosed)
    })

    it('refuses an ordinary quiz with 409, an unknown one with 404, and a paid-tier mock without paid access', async () => {
      const learner = await createUser(t.database)
      const ordinary = await openQuiz(t)
      const notLive = await send(learner, 'POST', `/api/quizzes/${ordinary.quiz.id}/register/`)
      expect(notLive.status).toBe(409)
      expect(notLive.body.detail).toBe(liveMessages.notLive)
      expect((await send(learner, 'POST', '/api/quizzes/999999/register/')).status).toBe(404)

      const paid = await liveMock({ is_paid_tier: 1 })
      const refused = await send(learner, 'POST', `/api/quizzes/${paid.id}/register/`)
      expect(refused.status).toBe(403)
      expect(refused.body.code).toBe('paid_access_required')
      const payer = await createUser(t.database, { paid_access_until: t.clock.now() + DAY })
      expect((await send(payer, 'POST', `/api/quizzes/${paid.id}/register/`)).status).toBe(201)
    })
  })

  describe('the leaderboard', () => {
    it('of a paid-tier mock answers 403 paid_access_required without paid access, as starting does', async () => {
      const mock = await liveMock({ is_paid_tier: 1 })
      const [learner, payer, admin] = [
        await createUser(t.database),
        await createUser(t.database, { paid_access_until: t.clock.now() + DAY }),
        await createUser(t.database, { is_admin: 1 }),
      ]
      t.clock.set(mock.ends)
      const refused = await mock.board(learner)
      expect(refused.status).toBe(403)
      expect(refused.body.code).toBe('paid_access_required')
      expect((await mock.start(learner)).body.code).toBe('paid_access_required')
      expect((await mock.board(payer)).status).toBe(200)
      expect((await mock.board(admin)).status).toBe(200)
    })

    it('goes upcoming -> running -> provisional -> final; an open flag keeps it provisional, its decision re-ranks', async () => {
      const mock = await liveMock({ challenge_days: 1 })
      const [ram, sita, hari, gita, anon] = [
        await createUser(t.database, { full_name: 'Ram Thapa' }),
        await createUser(t.database, { username: 'sita99' }),
        await createUser(t.database, { full_name: 'Hari' }),
        await createUser(t.database, { full_name: 'Gita', extra_time_percent: 100 }),
        await createUser(t.database, { full_name: 'Hidden Name', show_on_leaderboards: 0 }),
      ]
      const reader = await createUser(t.database)
      expect((await mock.board(reader)).body).toEqual({ status: 'upcoming', participants: 0, top: [], me: null })

      t.clock.set(mock.startsAt)
      for (const learner of [ram, sita, hari, gita, anon]) expect((await mock.start(learner)).status).toBe(200)
      await mock.submit(ram, 'AAB') // 1.8
      await mock.submit(sita, 'AAB') // 1.8
      await mock.submit(hari, 'A--') // 1
      await mock.submit(anon, 'B--') // -0.2
      expect((await mock.board(ram)).body).toEqual({ status: 'running', participants: 5, top: [], me: null })

      // From the common end: provisional, ranks as the report's (ties share a rank); Gita's extra time runs on.
      t.clock.set(mock.ends)
      const provisional = (await mock.board(sita)).body
      expect(provisional).toEqual({
        status: 'provisional',
        participants: 4,
        top: [
          { rank: 1, name: 'Ram Thapa', score: 1.8 },
          { rank: 1, name: 'sita99', score: 1.8 },
          { rank: 3, name: 'Hari', score: 1 },
          { rank: 4, name: 'Learner', score: -0.2 },
        ],
        me: { rank: 1, percentile: 66.67, score: 1.8 },
      })
      expect(JSON.stringify(provisional)).not.toContain(ram.phone_number)
      expect(JSON.stringify(provisional)).not.toContain('Hidden Name')
      expect(await mock.listed(reader)).toMatchObject({ live: { status: 'provisional' } })

      // Gita finishes late with her extra time and joins the board.
      t.clock.set(mock.ends + 10 * MINUTE)
      await mock.submit(gita, 'AAA') // 3
      expect((await mock.board(gita)).body).toMatchObject({
        participants: 5,
        me: { rank: 1, percentile: 100, score: 3 },
      })

      // Hari flags question 3 (he says B is right) inside the window, once Gita's time is over (issue 54: not before).
      t.clock.set(mock.ends + 30 * MINUTE + GRACE + 1)
      const hariAttempt = (await storedAttempts(t.db, hari.id, mock.id))[0]!
      const flagged = await call(hari, 'POST', `/api/results/${hariAttempt.id}/flags/`, {
        question_id: mock.questionIds[2],
        reason: 'wrong_key',
        proposed_option_id: mock.options[2]![1],
      })
      expect(flagged.status).toBe(201)

      // The window has closed, but the flag is open.
      t.clock.set(mock.ends + DAY + 1)
      expect((await mock.board(hari)).body.status).toBe('provisional')
      expect(
        (
          await call(hari, 'POST', `/api/results/${hariAttempt.id}/flags/`, {
            question_id: mock.questionIds[0],
            reason: 'typo',
          })
        ).status,
      ).toBe(409)

      // The key changes to B: Ram and Sita gain 1.2 each, Gita loses 1 (her A is now wrong).
      const admin = await createUser(t.database, { is_admin: 1 })
      const decided = await changeKey(t, admin, mock.questionIds[2]!, mock.options[2]![1]!)
      expect(decided.status).toBe(200)
      const final = (await mock.board(gita)).body
      expect(final).toEqual({
        status: 'final',
        participants: 5,
        top: [
          { rank: 1, name: 'Ram Thapa', score: 3 },
          { rank: 1, name: 'sita99', score: 3 },
          { rank: 3, name: 'Gita', score: 1.8 },
          { rank: 4, name: 'Hari', score: 1 },
          { rank: 5, name: 'Learner', score: -0.2 },
        ],
        me: { rank: 3, percentile: 50, score: 1.8 },
      })
      const report = (await call(gita, 'GET', `/api/results/${(await storedAttempts(t.db, gita.id, mock.id))[0]!.id}/`))
        .body
      expect(report.analysis).toMatchObject({ participants: 5, rank: 3, percentile: 50 })
    })

    it('waits for the last deadline plus grace before it is final; the end finishes attempts whose time ran out', async () => {
      const mock = await liveMock({ challenge_days: 0 })
      const [slow, quick] = [await createUser(t.database, { extra_time_percent: 100 }), await createUser(t.database)]
      t.clock.set(mock.startsAt)
      await mock.start(slow)
      await mock.start(quick)
      await call(slow, 'PUT', `/api/quizzes/${mock.id}/answers/`, {
        answers: { [mock.questionIds[0]!]: mock.options[0]![0] },
      })
      const slowDeadline = mock.startsAt + 60 * MINUTE

      t.clock.set(mock.ends + GRACE + 1)
      // Quick never submitted: the mock's end finishes the attempt on its saved answers (none).
      expect(await mockEnderOn(t.database, t.clock).endDue()).toBe(1)
      expect((await mock.board(quick)).body).toMatchObject({
        status: 'provisional',
        participants: 1,
        me: { rank: 1, score: 0 },
      })
      t.clock.set(slowDeadline + GRACE)
      expect((await mock.board(quick)).body.status).toBe('provisional')
      t.clock.set(slowDeadline + GRACE + 1)
      expect(await mockEnderOn(t.database, t.clock).endDue()).toBe(1)
      expect((await mock.board(quick)).body).toMatchObject({
        status: 'final',
        participants: 2,
        top: [
          { rank: 1, score: 1 },
          { rank: 2, score: 0 },
        ],
      })
    })

    it('holds the entries ranked 20 or better, ties at 20 included', async () => {
      const mock = await liveMock()
      t.clock.set(mock.startsAt)
      const learners: UserRow[] = []
      for (let i = 0; i < 22; i++) learners.push(await createUser(t.database))
      for (const [i, learner] of learners.entries()) {
        await mock.start(learner)
        // 19 learners with 3, then 3 learners tied with 2 (ranked 20).
        await mock.submit(learner, i < 19 ? 'AAA' : 'AA-')
      }
      t.clock.set(mock.ends)
      const { body } = await mock.board(learners[21]!)
      expect(body.top).toHaveLength(22)
      expect(body.top.at(-1)).toMatchObject({ rank: 20, score: 2 })
      expect(body.me).toEqual({ rank: 20, percentile: 0, score: 2 })
    })

    it('is 404 for an ordinary quiz and for an unknown one', async () => {
      const learner = await createUser(t.database)
      const ordinary = await openQuiz(t)
      expect((await call(learner, 'GET', `/api/quizzes/${ordinary.quiz.id}/leaderboard/`)).status).toBe(404)
      expect((await call(learner, 'GET', '/api/quizzes/999999/leaderboard/')).status).toBe(404)
    })
  })

  describe('the learners list', () => {
    it('shows the schedule, and keeps an ended mock until its challenge window closes, past its end_time', async () => {
      const mock = await liveMock({ end_time: null, challenge_days: 2 })
      // Opens tomorrow: listed before its start_time so learners can register.
      const later = await liveMock({
        start_time: t.clock.now() + DAY,
        live_starts_at: t.clock.now() + DAY,
        end_time: t.clock.now() + 2 * DAY,
      })
      const learner = await createUser(t.database)
      expect(await mock.listed(learner)).toMatchObject({
        live: {
          starts_at: iso(mock.startsAt),
          join_minutes: 5,
          join_ends_at: iso(mock.joinEnds),
          ends_at: iso(mock.ends),
          status: 'upcoming',
        },
        registered: false,
        can_start: false,
      })
      expect(await later.listed(learner)).toMatchObject({ can_start: false, live: { status: 'upcoming' } })

      const endTime = mock.ends + GRACE + MINUTE
      await t.db.updateTable('quizzes').set({ end_time: endTime }).where('id', '=', mock.id).execute()
      // Practice opens once the key is out: the common end plus grace (issue 54).
      t.clock.set(mock.ends)
      expect(await mock.listed(learner)).toMatchObject({ can_start: false, live: { status: 'provisional' } })
      t.clock.set(mock.ends + GRACE + 1)
      expect(await mock.listed(learner)).toMatchObject({ can_start: true, live: { status: 'provisional' } })
      t.clock.set(endTime)
      expect(await mock.listed(learner)).toMatchObject({ can_start: false, live: { status: 'provisional' } })
      t.clock.set(mock.ends + 2 * DAY - 1)
      expect(await mock.listed(learner)).toBeDefined()
      t.clock.set(mock.ends + 2 * DAY)
      expect(await mock.listed(learner)).toBeUndefined()
    })
  })
})
