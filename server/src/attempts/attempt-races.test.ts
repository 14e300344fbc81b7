import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { runRaceWorkers } from '../../test/race-workers'
import { bearerFor, createQuiz, createUser } from '../../test/factories'
import { openQuiz, storedAttempts } from '../../test/learner-api'
import { testConfig, useTestApp } from '../../test/test-app'
import { fromSqlite, type Database } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import type { UserRow } from '../db/schema'
import { FakeClock } from '../lib/clock'
import type { RaceWorkerInput, RaceWorkerLine } from '../../test/attempt-race-worker'
import { SQLite } from '../db/sqlite-driver'

const HOUR = 3_600_000

interface SubmitBody {
  attempt_id: number
  score: number
  correct: number
  incorrect: number
  unanswered: number
  completed_timestamp: string
}

/**
 * The invariants of API.md, read from the database after a storm of requests: never more attempts than
 * allowed, attempt numbers 1..n, every submit answer for an attempt identical to what is stored (scored once),
 * and each stored score equal to the score of the answers stored with it (no answer slipped in after scoring).
 */
async function expectAttemptInvariants(
  database: Database,
  userId: number,
  quizId: number,
  allowed: number,
  submits: SubmitBody[],
) {
  const attempts = await storedAttempts(database.db, userId, quizId)
  expect(attempts.length).toBeLessThanOrEqual(allowed)
  expect(attempts.filter((a) => a.status === 'finished').length).toBeLessThanOrEqual(allowed)
  expect(attempts.map((a) => a.attempt_number)).toEqual(attempts.map((_, i) => i + 1))
  expect(attempts.filter((a) => a.status === 'in_progress').length).toBeLessThanOrEqual(1)

  for (const submit of submits) {
    const row = attempts.find((a) => a.id === submit.attempt_id)
    expect(row, `attempt ${submit.attempt_id}`).toBeDefined()
    expect({
      score: row!.score_hundredths! / 100,
      correct: row!.correct,
      incorrect: row!.incorrect,
      unanswered: row!.unanswered,
      completed_timestamp: new Date(row!.finished_at!).toISOString(),
    }).toEqual({
      score: submit.score,
      correct: submit.correct,
      incorrect: submit.incorrect,
      unanswered: submit.unanswered,
      completed_timestamp: submit.completed_timestamp,
    })
  }

  const correct = new Set(
    (await database.db.selectFrom('question_options').select('id').where('is_correct', '=', 1).execute()).map(
      (o) => o.id,
    ),
  )
  for (const attempt of attempts.filter((a) => a.status === 'finished')) {
    const answers = await database.db
      .selectFrom('attempt_answers')
      .select('option_id')
      .where('attempt_id', '=', attempt.id)
      .execute()
    const given = answers.filter((a) => a.option_id !== null)
    const right = given.filter((a) => correct.has(a.option_id!)).length
    expect(attempt.score_hundredths, `attempt ${attempt.id} scored on its stored answers`).toBe(
      right * 100 - (given.length - right) * 20,
    )
  }
  return attempts
}

describe.each(dialects)('attempt limits under concurrent requests on %s', (dialect) => {
  const t = useTestApp(dialect)

  async function fire(user: UserRow, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) {
    const response = await t.app.inject({ method, url, headers: await bearerFor(t.tokens, user), payload })
    return { status: response.statusCode, body: response.json() }
  }

  it('never finishes more attempts than allowed nor scores one twice when starts and submits arrive together', async () => {
    const user = await createUser(t.database)
    const { quiz, questionIds, correctOptionIds, wrongOptionIds } = await openQuiz(
      t,
      { allowed_attempts: 3 },
      { questionCount: 4 },
    )
    const sheet = (k: number) =>
      Object.fromEntries(questionIds.map((id, i) => [id, i < k ? correctOptionIds[i]! : wrongOptionIds[i]!]))

    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? fire(user, 'POST', `/api/quizzes/${quiz.id}/submit/`, { answers: sheet(i % 5) })
          : fire(user, 'GET', `/api/quizzes/${quiz.id}/`),
      ),
    )
    expect(responses.filter((r) => ![200, 403].includes(r.status))).toEqual([])
    const submits = responses.filter((r, i) => i % 2 === 0 && r.status === 200).map((r) => r.body as SubmitBody)
    expect(submits.length).toBeGreaterThan(0)
    const attempts = await expectAttemptInvariants(t.database, user.id, quiz.id, 3, submits)
    expect(attempts).toHaveLength(3)

    // Retries naming each attempt, with other answers, all answer the stored result and change nothing.
    const finished = attempts.filter((a) => a.status === 'finished')
    const retries = await Promise.all(
      finished.flatMap((attempt) =>
        [0, 1, 2, 3, 4].map((k) =>
          fire(user, 'POST', `/api/quizzes/${quiz.id}/submit/`, { answers: sheet(k), attempt_id: attempt.id }),
        ),
      ),
    )
    expect(retries.map((r) => r.status)).toEqual(retries.map(() => 200))
    await expectAttemptInvariants(
      t.database,
      user.id,
      quiz.id,
      3,
      retries.map((r) => r.body as SubmitBody),
    )
  })

  it('gives every one of many first starts arriving together the same attempt', async () => {
    // On PostgreSQL a first start inserts without the learner's lock: all but one lose the insert and resume.
    const user = await createUser(t.database)
    const { quiz } = await openQuiz(t, { allowed_attempts: 3 }, { questionCount: 4 })
    const starts = await Promise.all(Array.from({ length: 20 }, () => fire(user, 'GET', `/api/quizzes/${quiz.id}/`)))
    expect(starts.map((r) => r.status)).toEqual(starts.map(() => 200))
    const ids = new Set(starts.map((r) => (r.body as { attempt: { id: number } }).attempt.id))
    expect(ids.size).toBe(1)
    const stored = await t.db
      .selectFrom('attempts')
      .select(['id', 'attempt_number'])
      .where('user_id', '=', user.id)
      .execute()
    expect(stored).toEqual([{ id: [...ids][0], attempt_number: 1 }])
  })

  it('scores one attempt once when many submits for it race each other and autosaves', async () => {
    const user = await createUser(t.database)
    const { quiz, questionIds, correctOptionIds, wrongOptionIds } = await openQuiz(
      t,
      { allowed_attempts: 1 },
      { questionCount: 5 },
    )
    const { attempt } = (await fire(user, 'GET', `/api/quizzes/${quiz.id}/`)).body
    const sheet = (k: number) => Object.fromEntries(questionIds.slice(0, k).map((id, i) => [id, correctOptionIds[i]!]))

    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0
          ? fire(user, 'PUT', `/api/quizzes/${quiz.id}/answers/`, {
              answers: { [questionIds[i % 5]!]: wrongOptionIds[i % 5] },
            })
          : fire(user, 'POST', `/api/quizzes/${quiz.id}/submit/`, { answers: sheet(i % 6), attempt_id: attempt.id }),
      ),
    )
    const submits = responses.filter((_, i) => i % 3 !== 0)
    expect(submits.map((r) => r.status)).toEqual(submits.map(() => 200))
    expect(new Set(submits.map((r) => JSON.stringify(r.body))).size).toBe(1)
    // A save that lost the race to the submit is refused, never silently stored after scoring.
    expect(responses.filter((_, i) => i % 3 === 0).every((r) => r.status === 200 || r.status === 409)).toBe(true)
    await expectAttemptInvariants(
      t.database,
      user.id,
      quiz.id,
      1,
      submits.map((r) => r.body as SubmitBody),
    )
  })
})

describe('attempt limits across two processes on one SQLite file', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('never finishes more attempts than allowed nor scores one twice when two processes hammer one learner', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'quiz-race-'))
    const file = path.join(dir, 'quiz.db')
    const database = fromSqlite(new SQLite(file))
    const clock = new FakeClock()
    try {
      await migrateToLatest(database)
      const user = await createUser(database)
      const { quiz, questionIds, correctOptionIds, wrongOptionIds } = await createQuiz(
        database,
        { start_time: clock.now() - HOUR, allowed_attempts: 4 },
        { questionCount: 4 },
      )
      const input: Omit<RaceWorkerInput, 'seed'> = {
        file,
        dataDir: dir,
        secret: testConfig().jwtSecret,
        now: clock.now(),
        user: { id: user.id, username: user.username },
        quizId: quiz.id,
        questions: questionIds.map((id, i) => ({ id, options: [correctOptionIds[i]!, wrongOptionIds[i]!] })),
        operations: 40,
      }

      const lines = (
        await runWorkers([
          { ...input, seed: 0 },
          { ...input, seed: 2 },
        ])
      ).flat()
      const allowed: Record<RaceWorkerLine['op'], number[]> = {
        start: [200, 403],
        submit: [200, 403],
        'submit-attempt': [200],
        // A save that loses the race to a submit is refused: 409 (attempt submitted) or 403 (none in progress).
        save: [200, 403, 409],
        list: [200],
      }
      expect(lines.filter((line) => !allowed[line.op].includes(line.status))).toEqual([])
      const submits = lines
        .filter((l) => l.op.startsWith('submit') && l.status === 200)
        .map((l) => l.body as SubmitBody)
      expect(submits.length).toBeGreaterThan(4)
      expect(lines.some((l) => l.op.startsWith('submit') && l.status === 403)).toBe(true)
      const attempts = await expectAttemptInvariants(database, user.id, quiz.id, 4, submits)
      expect(attempts.filter((a) => a.status === 'finished')).toHaveLength(4)
    } finally {
      await database.destroy()
    }
  }, 60_000)
})

const runWorkers = (inputs: RaceWorkerInput[]) =>
  runRaceWorkers<RaceWorkerLine>(path.join(import.meta.dirname, '../../test/attempt-race-worker.ts'), inputs)
