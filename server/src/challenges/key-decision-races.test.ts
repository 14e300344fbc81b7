import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Kysely } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { fromSqlite, type Database } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import type { DB } from '../db/schema'
import { SQLite } from '../db/sqlite-driver'
import { FakeClock } from '../lib/clock'
import { dialects } from '../../test/dialects'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import type { KeyRaceInput, KeyRaceLine } from '../../test/key-decision-race-worker'
import { runRaceWorkers } from '../../test/race-workers'
import { testConfig, useTestApp } from '../../test/test-app'

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
          .columns(['quiz_id', 'score_hundredths'])
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
    .select(['a.score_hundredths', 'a.correct', 'a.incorrect', 'aa.option_id'])
    .where('a.quiz_id', '=', quizId)
    .execute()
  for (const row of rows) {
    const marks = row.option_id === null ? 0 : right.has(row.option_id) ? 100 : -20
    expect(row.score_hundredths).toBe(100 + marks)
    expect(row.correct).toBe(1 + (marks === 100 ? 1 : 0))
    expect(row.incorrect).toBe(marks === -20 ? 1 : 0)
  }
  const byScore = new Map<number, number>()
  for (const row of rows) byScore.set(row.score_hundredths!, (byScore.get(row.score_hundredths!) ?? 0) + 1)
  const tally = await db
    .selectFrom('first_attempt_scores')
    .select(['score_hundredths', 'learners'])
    .where('quiz_id', '=', quizId)
    .orderBy('score_hundredths')
    .execute()
  expect(tally).toEqual(
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
