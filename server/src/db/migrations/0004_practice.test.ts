import { describe, expect, it } from 'vitest'
import { fromSqlite } from '../database'
import { migrateToLatest, migrateUpTo } from '../migrate'
import { SQLite } from '../sqlite-driver'

// A database with finished attempts made before the learning loop: the tally of first-attempt scores is filled from
// them (rank and percentile must count learners who finished before the upgrade), and the deck starts empty.
describe('migration 0004_practice on a database with finished attempts', () => {
  it('tallies the first finished attempts per quiz and score, and nothing else', async () => {
    const database = fromSqlite(new SQLite(':memory:'))
    const { db } = database
    await migrateUpTo(database, '0003_payments')

    const now = Date.now()
    const quiz = await db
      .insertInto('quizzes')
      .values({
        title_en: 'Old quiz',
        title_ne: '',
        start_time: now,
        end_time: null,
        duration_minutes: 10,
        is_paid_tier: 0,
        allowed_attempts: 3,
        difficulty: 'easy',
        created_at: now,
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const attempt = (userId: number, attemptNumber: number, score: number | null) =>
      db
        .insertInto('attempts')
        .values({
          user_id: userId,
          quiz_id: quiz.id,
          attempt_number: attemptNumber,
          status: score === null ? 'in_progress' : 'finished',
          started_at: now,
          deadline: now + 600_000,
          revision_ids: '[]',
          finished_at: score === null ? null : now,
          score_hundredths: score,
          correct: null,
          incorrect: null,
          unanswered: null,
        })
        .execute()
    for (let n = 1; n <= 4; n++) {
      await db
        .insertInto('users')
        .values({
          username: `u${n}`,
          username_key: `u${n}`,
          phone_number: `980000000${n}`,
          password_hash: 'x',
          created_at: now,
        })
        .execute()
    }
    await attempt(1, 1, 280)
    await attempt(1, 2, 400) // a second attempt: not a first one
    await attempt(2, 1, 280)
    await attempt(3, 1, -20)
    await attempt(4, 1, null) // in progress: not finished

    await migrateToLatest(database)

    expect(
      await db
        .selectFrom('first_attempt_scores')
        .select(['quiz_id', 'score_hundredths', 'learners'])
        .orderBy('score_hundredths')
        .execute(),
    ).toEqual([
      { quiz_id: quiz.id, score_hundredths: -20, learners: 1 },
      { quiz_id: quiz.id, score_hundredths: 280, learners: 2 },
    ])
    expect(await db.selectFrom('practice_cards').selectAll().execute()).toEqual([])
    await database.destroy()
  })
})
