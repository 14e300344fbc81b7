import type { HTTPMethods } from 'fastify'
import type { Insertable } from 'kysely'
import type { Database } from '../src/db/database'
import type { QuizTable, UserRow } from '../src/db/schema'
import { createQuiz, type QuestionSeed } from './factories'
import { injectAs } from './requests'
import type { TestApp } from './test-app'

const HOUR = 3_600_000

/** requests.ts's injectAs with the body read as JSON. Reads the app's fields only when called, as useTestApp asks. */
export function requestsAs(t: Pick<TestApp, 'app' | 'tokens'>) {
  return async (user: UserRow, method: HTTPMethods, url: string, payload?: unknown) => {
    const response = await injectAs(t)(user, method, url, payload)
    return { status: response.statusCode, body: response.json(), raw: response.body }
  }
}

/** A quiz that opened an hour before the fake clock's now, with the factory's defaults (90 min, 3 attempts). */
export function openQuiz(
  t: Pick<TestApp, 'database' | 'clock'>,
  overrides: Partial<Insertable<QuizTable>> = {},
  seeds: { questionCount?: number; questions?: QuestionSeed[] } = {},
) {
  return createQuiz(t.database, { start_time: t.clock.now() - HOUR, ...overrides }, seeds)
}

/** A learner's attempts at a quiz as stored, by attempt number. */
export const storedAttempts = (db: Database['db'], userId: number, quizId: number) =>
  db
    .selectFrom('attempts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('quiz_id', '=', quizId)
    .orderBy('attempt_number')
    .execute()

/** An attempt's stored answers, by question id. */
export const storedAnswers = (db: Database['db'], attemptId: number) =>
  db
    .selectFrom('attempt_answers')
    .select(['question_id', 'option_id'])
    .where('attempt_id', '=', attemptId)
    .orderBy('question_id')
    .execute()

/** A question's option ids in authored order (its current revision's). */
export async function storedOptionIds(db: Database['db'], questionId: number) {
  const rows = await db
    .selectFrom('question_options as o')
    .innerJoin('questions as q', 'q.revision_id', 'o.revision_id')
    .select('o.id')
    .where('q.id', '=', questionId)
    .orderBy('o.position')
    .execute()
  return rows.map((row) => row.id)
}

/** A quiz's rank tally as its readers see it, lowest score first: each score's rows summed (decision 138). */
export const storedTally = async (db: Database['db'], quizId: number) =>
  (
    await db
      .selectFrom('first_attempt_scores')
      .select((eb) => ['score_hundredths', eb.fn.sum<number | string>('learners').as('learners')])
      .where('quiz_id', '=', quizId)
      .groupBy('score_hundredths')
      .orderBy('score_hundredths')
      .execute()
  ).map((row) => ({ score_hundredths: row.score_hundredths, learners: Number(row.learners) }))
