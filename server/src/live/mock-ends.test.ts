import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { fromSqlite, type Database } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import { SQLite } from '../db/sqlite-driver'
import { FakeClock } from '../lib/clock'
import { dialects } from '../../test/dialects'
import { createQuiz, createUser } from '../../test/factories'
import { storedAttempts, storedTally } from '../../test/learner-api'
import { changeKey, openLiveMock } from '../../test/live-mock'
import type { MockEndRaceLine } from '../../test/mock-end-race-worker'
import { runRaceWorkers } from '../../test/race-workers'
import { secondPool, testConfig, useTestApp, type TestApp } from '../../test/test-app'
import { mockEnderOn } from '../../test/mock-ender'

const MINUTE = 60_000
const GRACE = 120_000
const enderOn = mockEnderOn

const snapshotOf = (t: TestApp, quizId: number) =>
  t.db.selectFrom('leaderboard_snapshots').selectAll().where('quiz_id', '=', quizId).executeTakeFirst()

// API.md "Live mocks", national scale: the server ends a mock once, and its board is served from the snapshot.
describe.each(dialects)('the end of a live mock on %s', (dialect) => {
  const t = useTestApp(dialect)

  const liveMock = () => openLiveMock(t, { challenge_days: 1 })

  it('finishes unsubmitted attempts once at the end plus grace, and serves the board without finishing any', async () => {
    const mock = await liveMock()
    const [done, saver, slow] = [
      await createUser(t.database, { full_name: 'Done' }),
      await createUser(t.database, { full_name: 'Saver' }),
      await createUser(t.database, { full_name: 'Slow', extra_time_percent: 100 }),
    ]
    t.clock.set(mock.startsAt)
    for (const learner of [done, saver, slow]) expect((await mock.start(learner)).status).toBe(200)
    await mock.submit(done, 'A--') // 1
    expect((await mock.save(saver, 'AA-')).status).toBe(200) // 2, never submitted
    expect((await mock.save(slow, 'AAA')).status).toBe(200) // 3, with time to run on

    // After the common end, before the job: the board is read, and no attempt is finished by reading it.
    t.clock.set(mock.ends + GRACE + 1)
    expect((await mock.board(done)).body).toMatchObject({ status: 'provisional', participants: 1 })
    expect((await storedAttempts(t.db, saver.id, mock.id))[0]!.status).toBe('in_progress')

    const [first, second] = [enderOn(t.database, t.clock), enderOn(t.database, t.clock)]
    expect(await first.endDue()).toBe(1)
    expect(await second.endDue()).toBe(0)
    const saved = (await storedAttempts(t.db, saver.id, mock.id))[0]!
    expect([saved.status, saved.score_hundredths, saved.submitted]).toEqual(['finished', 200, 0])
    expect((await storedAttempts(t.db, slow.id, mock.id))[0]!.status).toBe('in_progress')
    const snapshot = await snapshotOf(t, mock.id)
    expect(snapshot).toMatchObject({ starts_at: mock.startsAt, participants: 2, taken_at: t.clock.now() })
    expect((await mock.board(saver)).body).toEqual({
      status: 'provisional',
      participants: 2,
      top: [
        { rank: 1, name: 'Saver', score: 2 },
        { rank: 2, name: 'Done', score: 1 },
      ],
      me: { rank: 1, percentile: 100, score: 2 },
    })

    // The extra time runs out unsubmitted: the job passes over the mock once more, then never again.
    const slowDeadline = mock.startsAt + 60 * MINUTE
    t.clock.set(slowDeadline + GRACE)
    expect(await first.endDue()).toBe(0)
    t.clock.set(slowDeadline + GRACE + 1)
    expect(await second.endDue()).toBe(1)
    expect(await first.endDue()).toBe(0)
    expect((await storedAttempts(t.db, slow.id, mock.id))[0]!.score_hundredths).toBe(300)
    expect(await snapshotOf(t, mock.id)).toMatchObject({ participants: 3, due_at: null })
    expect((await mock.board(slow)).body).toMatchObject({ participants: 3, me: { rank: 1, score: 3 } })
  })

  it('finishes unsubmitted attempts a chunk at a time before the claim, and counts each once on the board', async () => {
    const mock = await liveMock()
    const learners = []
    for (let i = 0; i < 5; i++) learners.push(await createUser(t.database, { full_name: `Learner ${i}` }))
    t.clock.set(mock.startsAt)
    for (const [i, learner] of learners.entries()) {
      expect((await mock.start(learner)).status).toBe(200)
      expect((await mock.save(learner, i % 2 ? 'AA-' : 'A--')).status).toBe(200)
    }

    t.clock.set(mock.ends + GRACE + 1)
    expect(await enderOn(t.database, t.clock, { chunk: 2 }).endDue()).toBe(1)
    for (const [i, learner] of learners.entries())
      expect((await storedAttempts(t.db, learner.id, mock.id))[0]).toMatchObject({
        status: 'finished',
        submitted: 0,
        score_hundredths: i % 2 ? 200 : 100,
      })
    expect(await snapshotOf(t, mock.id)).toMatchObject({ participants: 5, due_at: null })
    expect((await mock.board(learners[1]!)).body).toMatchObject({ participants: 5, me: { rank: 1, score: 2 } })
  })

  it('keeps the snapshot: a late finish joins it, a key decision re-ranks it', async () => {
    const mock = await liveMock()
    const [ram, sita, gita] = [
      await createUser(t.database, { full_name: 'Ram' }),
      await createUser(t.database, { full_name: 'Sita' }),
      await createUser(t.database, { full_name: 'Gita', extra_time_percent: 100 }),
    ]
    t.clock.set(mock.startsAt)
    for (const learner of [ram, sita, gita]) await mock.start(learner)
    await mock.submit(ram, 'AAB') // 1.8
    await mock.submit(sita, 'A--') // 1
    t.clock.set(mock.ends + GRACE + 1)
    expect(await enderOn(t.database, t.clock).endDue()).toBe(1)
    expect((await snapshotOf(t, mock.id))!.participants).toBe(2)

    // Gita finishes with her extra time: the snapshot itself takes her in.
    t.clock.set(mock.ends + 10 * MINUTE)
    expect((await mock.submit(gita, 'AAA')).status).toBe(200) // 3
    const joined = await snapshotOf(t, mock.id)
    expect(joined!.participants).toBe(3)
    expect(JSON.parse(joined!.top)).toEqual([
      { rank: 1, user_id: gita.id, score_hundredths: 300 },
      { rank: 2, user_id: ram.id, score_hundredths: 180 },
      { rank: 3, user_id: sita.id, score_hundredths: 100 },
    ])

    // The key of question 3 becomes B: Ram gains 1.2 (3), Gita loses 1.2 (1.8).
    const admin = await createUser(t.database, { is_admin: 1 })
    const decided = await changeKey(t, admin, mock.questionIds[2]!, mock.options[2]![1]!)
    expect(decided.status).toBe(200)
    expect(JSON.parse((await snapshotOf(t, mock.id))!.top)).toEqual([
      { rank: 1, user_id: ram.id, score_hundredths: 300 },
      { rank: 2, user_id: gita.id, score_hundredths: 180 },
      { rank: 3, user_id: sita.id, score_hundredths: 100 },
    ])
    expect((await mock.board(gita)).body).toMatchObject({
      participants: 3,
      top: [
        { rank: 1, name: 'Ram', score: 3 },
        { rank: 2, name: 'Gita', score: 1.8 },
        { rank: 3, name: 'Sita', score: 1 },
      ],
      me: { rank: 2, percentile: 50, score: 1.8 },
    })
  })

  it('is ended once by two instances racing, each with its own connections, sharing its chunks', async () => {
    const { quizId, learners } = await seedEndedMock(t.database, 30)
    const second = await secondDatabase(t, dialect)
    try {
      const ended = await Promise.all([
        enderOn(t.database, t.clock, { chunk: 4 }).endDue(),
        enderOn(second.database, t.clock, { chunk: 4 }).endDue(),
      ])
      expect(ended.sort()).toEqual([0, 1])
    } finally {
      await second.close()
    }
    await expectEndedOnce(t.database, quizId, learners)
  })
})

/** A live mock whose end plus grace has passed (by the fake clock), `count` learners in progress with A saved on Q1. */
async function seedEndedMock(database: Database, count: number) {
  const clock = new FakeClock()
  const startsAt = clock.now() - 2 * 60 * MINUTE
  const { quiz, questionIds, correctOptionIds } = await createQuiz(
    database,
    { live_starts_at: startsAt, live_join_minutes: 5, duration_minutes: 30, start_time: startsAt - MINUTE },
    { questionCount: 2 },
  )
  const revisions = await database.db
    .selectFrom('questions')
    .select(['id', 'revision_id'])
    .where('id', 'in', questionIds)
    .execute()
  const revisionIds = questionIds.map((id) => revisions.find((row) => row.id === id)!.revision_id)
  for (let i = 0; i < count; i++) {
    const user = await createUser(database)
    const attempt = await database.db
      .insertInto('attempts')
      .values({
        user_id: user.id,
        quiz_id: quiz.id,
        attempt_number: 1,
        status: 'in_progress',
        started_at: startsAt,
        deadline: startsAt + 30 * MINUTE,
        revision_ids: JSON.stringify(revisionIds),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await database.db
      .insertInto('attempt_answers')
      .values({ attempt_id: attempt.id, question_id: questionIds[0]!, option_id: correctOptionIds[0]!, saved_at: 0 })
      .execute()
  }
  return { quizId: quiz.id, learners: count }
}

/** Every attempt finished once on its saved answer, the tally and the snapshot counting each learner once. */
async function expectEndedOnce(database: Database, quizId: number, learners: number) {
  const rows = await database.db
    .selectFrom('attempts')
    .select(['status', 'score_hundredths'])
    .where('quiz_id', '=', quizId)
    .execute()
  expect(rows).toEqual(rows.map(() => ({ status: 'finished', score_hundredths: 100 })))
  expect(rows).toHaveLength(learners)
  expect(await storedTally(database.db, quizId)).toEqual([{ score_hundredths: 100, learners }])
  const snapshot = await database.db
    .selectFrom('leaderboard_snapshots')
    .selectAll()
    .where('quiz_id', '=', quizId)
    .executeTakeFirstOrThrow()
  expect(snapshot.participants).toBe(learners)
  expect(JSON.parse(snapshot.top)).toHaveLength(learners)
}

/** PostgreSQL: a second pool on the test's database, as a second process has. SQLite in memory: the same database. */
async function secondDatabase(t: TestApp, dialect: string) {
  if (dialect === 'sqlite') return { database: t.database, close: async () => {} }
  const database = await secondPool(t)
  return { database, close: () => database.destroy() }
}

describe('the end of a live mock across two processes on one SQLite file', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('is ended by exactly one of them', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'quiz-mock-end-race-'))
    const file = path.join(dir, 'quiz.db')
    const database = fromSqlite(new SQLite(file))
    try {
      await migrateToLatest(database)
      const user = await createUser(database)
      const { quizId, learners } = await seedEndedMock(database, 40)
      const input = {
        file,
        dataDir: dir,
        secret: testConfig().jwtSecret,
        now: new FakeClock().now(),
        user: { id: user.id, username: user.username },
      }
      const lines = (
        await runRaceWorkers<MockEndRaceLine>(path.join(import.meta.dirname, '../../test/mock-end-race-worker.ts'), [
          input,
          input,
        ])
      ).flat()
      expect(lines.map((line) => line.ended).sort()).toEqual([0, 1])
      await expectEndedOnce(database, quizId, learners)
    } finally {
      await database.destroy()
    }
  }, 180_000)
})
