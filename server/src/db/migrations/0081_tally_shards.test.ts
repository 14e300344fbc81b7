import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openDatabaseAt } from '../../../test/migration-database'
import { migrateToLatest } from '../migrate'

// A score's count may live in several rows after the upgrade (decision 138): the rows an older server wrote become
// each score's first row, and a later count of the same score may take another.
describe.each(dialects)('migration 0081_tally_shards on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('keeps each score’s count as its first row and takes others for the same score', async () => {
    const opened = await openDatabaseAt(dialect, '0080_paper_figures_per_statement')
    drop = opened.drop
    const { database, insert, db } = opened
    const now = Date.now()
    const quizId = await insert('quizzes', {
      title_en: 'Old quiz',
      start_time: now,
      duration_minutes: 10,
      allowed_attempts: 1,
      difficulty: 'easy',
      created_at: now,
    })
    await db
      .insertInto('first_attempt_scores')
      .values({ quiz_id: quizId, score_hundredths: 300, learners: 4 })
      .execute()
    await db
      .insertInto('first_attempt_scores')
      .values({ quiz_id: quizId, score_hundredths: 150, learners: 1 })
      .execute()

    await migrateToLatest(database)

    const rows = () =>
      db
        .selectFrom('first_attempt_scores')
        .select(['score_hundredths', 'shard', 'learners'])
        .orderBy('score_hundredths')
        .orderBy('shard')
        .execute()
    expect(await rows()).toEqual([
      { score_hundredths: 150, shard: 0, learners: 1 },
      { score_hundredths: 300, shard: 0, learners: 4 },
    ])
    await db
      .insertInto('first_attempt_scores')
      .values({ quiz_id: quizId, score_hundredths: 300, shard: 5, learners: 1 })
      .execute()
    expect(await rows()).toEqual([
      { score_hundredths: 150, shard: 0, learners: 1 },
      { score_hundredths: 300, shard: 0, learners: 4 },
      { score_hundredths: 300, shard: 5, learners: 1 },
    ])
    await expect(
      db.insertInto('first_attempt_scores').values({ quiz_id: quizId, score_hundredths: 300, learners: 1 }).execute(),
    ).rejects.toThrow()
  })
})
