import { describe, expect, it } from 'vitest'
import { fromSqlite } from '../database'
import { SQLite } from '../sqlite-driver'
import { migrateToLatest, migrateUpTo } from '../migrate'

// A database made before exam feel: its quizzes and attempts keep working with the defaults (no shuffling,
// authored option order, no marks, visits or seconds). PostgreSQL runs the same DDL in every API test.
describe('migration 0002_exam_feel on a database with attempts', () => {
  it('adds the columns with their defaults and an empty state table', async () => {
    const database = fromSqlite(new SQLite(':memory:'))
    const { db } = database
    await migrateUpTo(database, '0001_initial')

    const now = Date.now()
    const user = await db
      .insertInto('users')
      .values({ username: 'old', username_key: 'old', phone_number: '9800000000', password_hash: 'x', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    const quiz = await db
      .insertInto('quizzes')
      .values({
        title_en: 'Old quiz',
        title_ne: '',
        start_time: now,
        end_time: null,
        duration_minutes: 10,
        is_paid_tier: 0,
        allowed_attempts: 1,
        difficulty: 'easy',
        created_at: now,
        deleted_at: null,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('attempts')
      .values({
        user_id: user.id,
        quiz_id: quiz.id,
        attempt_number: 1,
        status: 'in_progress',
        started_at: now,
        deadline: now + 600_000,
        revision_ids: '[]',
        finished_at: null,
        score_hundredths: null,
        correct: null,
        incorrect: null,
        unanswered: null,
      } as never)
      .execute()

    await migrateToLatest(database)

    expect(await db.selectFrom('quizzes').select(['shuffle_questions', 'shuffle_options']).execute()).toEqual([
      { shuffle_questions: 0, shuffle_options: 0 },
    ])
    expect(await db.selectFrom('attempts').select(['option_order', 'revision_ids']).execute()).toEqual([
      { option_order: null, revision_ids: '[]' },
    ])
    expect(await db.selectFrom('attempt_question_states').selectAll().execute()).toEqual([])
    await database.destroy()
  })
})
