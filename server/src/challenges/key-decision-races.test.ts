import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../app'
import { fromSqlite, type Database, type Dialect } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import type { DB, UserRow } from '../db/schema'
import { SQLite } from '../db/sqlite-driver'
import { FakeClock } from '../lib/clock'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { requestsAs, storedAttempts, storedOptionIds, storedTally } from '../../test/learner-api'
import type { KeyRaceInput, KeyRaceLine } from '../../test/key-decision-race-worker'
import { runRaceWorkers } from '../../test/race-workers'
import { appOn, secondPool, testConfig, useTestApp, type TestApp } from '../../test/test-app'

const HOUR = 3_600_000

/** Learners answering the first question with A, B, C, D and none in turn; each also gets the second right. */
async function seedAttempts(database: Database, quizId: number, questionIds: number[], count: number, now: number) {
  const { db } = database
  const revisions = await db
    .selectFrom('questions')
    .select(['id', 'revision_id'])
    .where('id', 'in', questionIds)
    .execute()
  const revisionOf = new Map(revisions.map((row) => [row.id, row.revision_id!]))
  const options = await db
    .selectFrom('question_options')
    .select('id')
    .where('revision_id', '=', revisionOf.get(questionIds[0]!)!)
    .orderBy('position')
    .execute()
  const optionIds = options.map((row) => row.id)
  for (let i = 0; i < count; i++) {
    const user = await createUser(database)
    const chosen = i % 5 === 4 ? null : optionIds[i % 4]!
    const marks = chosen === null ? 0 : chosen === optionIds[0] ? 100 : -20
    const attempt = await db
      .insertInto('attempts')
      .values({
        user_id: user.id,
        quiz_id: quizId,
        attempt_number: 1,
        status: 'finished',
        started_at: now - HOUR,
        deadline: now,
        revision_ids: JSON.stringify(questionIds.map((id) => revisionOf.get(id))),
        finished_at: now,
        score_hundredths: 100 + marks,
        correct: 1 + (marks === 100 ? 1 : 0),
        incorrect: marks === -20 ? 1 : 0,
        unanswered: chosen === null ? 1 : 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (chosen !== null)
      await db
        .insertInto('attempt_answers')
        .values({ attempt_id: attempt.id, question_id: questionIds[0]!, option_id: chosen, saved_at: now })
        .execute()
    await db
      .insertInto('first_attempt_scores')
      .values({ quiz_id: quizId, score_hundredths: 100 + marks, learners: 1 })
      .onConflict((oc) =>
        oc
          .columns(['quiz_id', 'score_hundredths', 'shard'])
          .doUpdateSet((eb) => ({ learners: eb('first_attempt_scores.learners', '+', 1) })),
      )
      .execute()
  }
  return { revisionId: revisionOf.get(questionIds[0]!)!, optionIds }
}

/** Every score equals what the final key gives, and the rank tally counts exactly the first attempts' scores. */
async function expectConsistent(db: Kysely<DB>, quizId: number, questionId: number, revisionId: number) {
  const key = await db
    .selectFrom('question_revisions as r')
    .innerJoin('key_versions as k', (join) =>
      join.onRef('k.revision_id', '=', 'r.id').onRef('k.version', '=', 'r.key_version'),
    )
    .select(['k.correct_option_ids', 'r.key_version'])
    .where('r.id', '=', revisionId)
    .executeTakeFirstOrThrow()
  const right = new Set(JSON.parse(key.correct_option_ids) as number[])
  const rows = await db
    .selectFrom('attempts as a')
    .leftJoin('attempt_answers as aa', (join) =>
      join.onRef('aa.attempt_id', '=', 'a.id').on('aa.question_id', '=', questionId),
    )
    .select(['a.attempt_number', 'a.score_hundredths', 'a.correct', 'a.incorrect', 'aa.option_id'])
    .where('a.quiz_id', '=', quizId)
    .execute()
  for (const row of rows) {
    const marks = row.option_id === null ? 0 : right.has(row.option_id) ? 100 : -20
    expect(row.score_hundredths).toBe(100 + marks)
    expect(row.correct).toBe(1 + (marks === 100 ? 1 : 0))
    expect(row.incorrect).toBe(marks === -20 ? 1 : 0)
  }
  const byScore = new Map<number, number>()
  for (const row of rows.filter((row) => row.attempt_number === 1))
    byScore.set(row.score_hundredths!, (byScore.get(row.score_hundredths!) ?? 0) + 1)
  expect(await storedTally(db, quizId)).toEqual(
    [...byScore].sort((a, b) => a[0] - b[0]).map(([score_hundredths, learners]) => ({ score_hundredths, learners })),
  )
  // Each regrade starts from the marks the one before left: the decisions never interleaved.
  const regrades = await db.selectFrom('regrades').selectAll().orderBy('id').execute()
  const last = new Map<number, number>()
  for (const regrade of regrades) {
    const before = last.get(regrade.attempt_id)
    if (before !== undefined) expect(regrade.old_marks).toBe(before)
    last.set(regrade.attempt_id, regrade.new_marks)
  }
  return key.key_version
}

describe.each(dialects)('concurrent key decisions on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('applies decisions on one question one after the other, never interleaved', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const { quiz, questionIds } = await createQuiz(t.database, {}, { questionCount: 2 })
    const { revisionId, optionIds } = await seedAttempts(t.database, quiz.id, questionIds, 40, t.clock.now())
    const headers = await bearerFor(t.tokens, admin)
    const sends = [1, 2, 3, 1, 2, 3, 0, 1].map((option, i) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/questions/${questionIds[0]}/key/`,
        headers,
        payload: {
          revision_id: revisionId,
          action: 'change',
          correct_option_ids: [optionIds[option]],
          note: `Decision ${i}`,
          dry_run: false,
        },
      }),
    )
    const responses = await Promise.all(sends)
    expect(responses.map((response) => response.statusCode)).toEqual(responses.map(() => 200))
    const version = await expectConsistent(t.db, quiz.id, questionIds[0]!, revisionId)
    expect(version).toBe(
      await t.db
        .selectFrom('key_versions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.n)),
    )
  })
})

/** The admin's decision that `optionId` is the question's right option: its response's status. */
async function changeKey(
  app: App,
  t: TestApp,
  admin: UserRow,
  questionId: number,
  revisionId: number,
  optionId: number,
  dryRun = false,
) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/admin/questions/${questionId}/key/`,
    headers: await bearerFor(t.tokens, admin),
    payload: { revision_id: revisionId, action: 'change', correct_option_ids: [optionId], note: 'B', dry_run: dryRun },
  })
  return { status: response.statusCode }
}

/**
 * Where the admin's decision is sent from. PostgreSQL: a second app instance with its own connection pool on the
 * test's database, as a second server process would be, so that the decision does not queue behind the learners'
 * requests for the first app's connections. SQLite (in memory, one process): the test's app.
 */
async function adminApp(t: TestApp, dialect: Dialect) {
  if (dialect === 'sqlite') return { app: t.app, database: t.database, close: async () => {} }
  const { config, clock, sms, tokens } = t
  return appOn(await secondPool(t), { config, clock, sms, tokens })
}

describe.each(dialects)('a key decision racing finishing attempts on %s', (dialect) => {
  const t = useTestApp(dialect)

  // Every way an attempt finishes, each scoring on the key it reads then: a submit of the attempt in progress (a
  // first one, and a second after a finished first), a submit that starts and finishes one at once (after a
  // finished first), and the expiry of one whose time ran out (settled by the learner's quiz list). A decision
  // changes the key while they finish; afterwards every stored score is what the final key gives: no attempt
  // finished on the old key after the decision had collected the attempts to re-score.
  it('leaves no attempt scored on the old key', async () => {
    const call = requestsAs(t)
    const admin = await createUser(t.database, { is_admin: 1 })
    const { quiz, questionIds, correctOptionIds } = await createQuiz(t.database, {}, { questionCount: 2 })
    const revision = await t.db
      .selectFrom('questions')
      .select('revision_id')
      .where('id', '=', questionIds[0]!)
      .executeTakeFirstOrThrow()
    const optionIds = await storedOptionIds(t.db, questionIds[0]!)
    const submitUrl = `/api/quizzes/${quiz.id}/submit/`
    // Learner i answers the first question with A, B, C, D or nothing, and the second right.
    const answersOf = (i: number) => ({
      [questionIds[0]!]: i % 5 === 4 ? null : optionIds[i % 4]!,
      [questionIds[1]!]: correctOptionIds[1]!,
    })
    const graceMs = t.config.submitGraceSeconds * 1000

    // Each learner's way to finish, ready to go.
    const finishes = await Promise.all(
      Array.from({ length: 32 }, async (_, i) => {
        const user = await createUser(t.database)
        const answers = answersOf(i)
        const way = i % 4
        if (way === 1 || way === 2) expect((await call(user, 'POST', submitUrl, { answers })).status).toBe(200)
        if (way === 1) return () => call(user, 'POST', submitUrl, { answers })
        const started = await call(user, 'GET', `/api/quizzes/${quiz.id}/`)
        expect(started.status).toBe(200)
        expect((await call(user, 'PUT', `/api/quizzes/${quiz.id}/answers/`, { answers })).status).toBe(200)
        if (way !== 3) return () => call(user, 'POST', submitUrl, { answers })
        await t.db
          .updateTable('attempts')
          .set({ deadline: t.clock.now() - graceMs - 1 })
          .where('id', '=', (started.body as { attempt: { id: number } }).attempt.id)
          .execute()
        return () => call(user, 'GET', '/api/quizzes/')
      }),
    )

    const deciding = await adminApp(t, dialect)
    try {
      const decide = (dryRun: boolean) =>
        changeKey(deciding.app, t, admin, questionIds[0]!, revision.revision_id!, optionIds[1]!, dryRun)
      // A dry run first opens the admin app's connections: the decision itself then waits for none.
      expect((await decide(true)).status).toBe(200)
      // The decision goes once a few attempts have finished, while the others are finishing.
      const finishing = finishes.map((finish) => finish())
      let finished = 0
      const decision = new Promise<{ status: number }>((resolve, reject) => {
        for (const promise of finishing)
          void promise.then(() => {
            if (++finished === 4) decide(false).then(resolve, reject)
          })
      })
      const responses = await Promise.all([...finishing, decision])
      expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200))
    } finally {
      await deciding.close()
    }
    expect(await t.db.selectFrom('attempts').select('id').where('status', '!=', 'finished').execute()).toEqual([])
    expect(await expectConsistent(t.db, quiz.id, questionIds[0]!, revision.revision_id!)).toBe(1)
  })
})

// PostgreSQL: the other side of the race, made certain. A decision holds the revision's row (locked for update) and
// is held up re-scoring, by a lock on another learner's attempt; meanwhile a learner who finished the quiz once
// submits a second attempt. The submit must neither score on the old key nor wait for the decision while it holds
// its attempts' rows (the decision re-scores the first attempt: each would wait for the other).
describe.runIf(process.env.TEST_DATABASE_URL)('a submit meeting a key decision in progress on postgres', () => {
  const t = useTestApp('postgres')

  it('waits for the decision, holding nothing, then scores on the decided key', async () => {
    const call = requestsAs(t)
    const admin = await createUser(t.database, { is_admin: 1 })
    const { quiz, questionIds, correctOptionIds } = await createQuiz(t.database, {}, { questionCount: 2 })
    const [a, b] = await storedOptionIds(t.db, questionIds[0]!)
    const { revision_id: revisionId } = await t.db
      .selectFrom('questions')
      .select('revision_id')
      .where('id', '=', questionIds[0]!)
      .executeTakeFirstOrThrow()
    const submitUrl = `/api/quizzes/${quiz.id}/submit/`
    const answers = (option: number) => ({ [questionIds[0]!]: option, [questionIds[1]!]: correctOptionIds[1]! })
    // Both answered A, right until the decision: each first attempt is re-scored.
    const other = await createUser(t.database)
    const learner = await createUser(t.database)
    for (const user of [other, learner])
      expect((await call(user, 'POST', submitUrl, { answers: answers(a!) })).status).toBe(200)
    const [otherAttempt] = await storedAttempts(t.db, other.id, quiz.id)
    expect((await call(learner, 'GET', `/api/quizzes/${quiz.id}/`)).status).toBe(200)

    const deciding = await adminApp(t, 'postgres')
    let locked!: () => void
    let release!: () => void
    const isLocked = new Promise<void>((resolve) => (locked = resolve))
    const released = new Promise<void>((resolve) => (release = resolve))
    try {
      // The other learner's attempt, locked: the decision waits there, holding the revision.
      const holding = deciding.database.transaction(async (trx) => {
        await trx.selectFrom('attempts').select('id').where('id', '=', otherAttempt!.id).forUpdate().execute()
        locked()
        await released
      })
      await isLocked
      const decision = changeKey(deciding.app, t, admin, questionIds[0]!, revisionId!, b!)
      await waitingOn(t, 'regrades')

      const submit = call(learner, 'POST', submitUrl, { answers: answers(b!) })
      // With the fix the submit waits on the revision's row; without it, it finishes at once on the old key.
      await Promise.race([submit, waitingOn(t, 'question_revisions')])
      release()
      await holding
      expect((await decision).status).toBe(200)
      expect((await submit).status).toBe(200)
    } finally {
      release()
      await deciding.close()
    }
    // The first attempts re-scored (A is wrong now), the second scored on B.
    const attempts = await storedAttempts(t.db, learner.id, quiz.id)
    expect(attempts.map((row) => [row.status, row.score_hundredths])).toEqual([
      ['finished', 80],
      ['finished', 200],
    ])
    expect(await expectConsistent(t.db, quiz.id, questionIds[0]!, revisionId!)).toBe(1)
  })
})

/** Resolves once another connection to the test's database waits for a lock in a statement naming `table`. */
async function waitingOn(t: TestApp, table: string) {
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query like ${`%${table}%`}`.execute(t.db)
    if (rows[0]!.n > 0) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('key decisions across two processes on one SQLite file', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('serialises two processes deciding the same question at once', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'quiz-key-race-'))
    const file = path.join(dir, 'quiz.db')
    const database = fromSqlite(new SQLite(file))
    const clock = new FakeClock()
    try {
      await migrateToLatest(database)
      const admin = await createUser(database, { is_admin: 1 })
      const { quiz, questionIds } = await createQuiz(database, {}, { questionCount: 2 })
      const { revisionId, optionIds } = await seedAttempts(database, quiz.id, questionIds, 60, clock.now())
      const input = {
        file,
        dataDir: dir,
        secret: testConfig().jwtSecret,
        now: clock.now(),
        user: { id: admin.id, username: admin.username },
        questionId: questionIds[0]!,
        revisionId,
      }
      const lines = (
        await runRaceWorkers<KeyRaceLine>(path.join(import.meta.dirname, '../../test/key-decision-race-worker.ts'), [
          { ...input, options: [optionIds[1]!, optionIds[2]!, optionIds[1]!] } satisfies KeyRaceInput,
          { ...input, options: [optionIds[2]!, optionIds[3]!, optionIds[1]!] } satisfies KeyRaceInput,
        ])
      ).flat()
      expect(lines.map((line) => line.status)).toEqual(lines.map(() => 200))
      await expectConsistent(database.db, quiz.id, questionIds[0]!, revisionId)
    } finally {
      await database.destroy()
    }
  }, 180_000)
})
