import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openDatabaseAt } from '../../../test/migration-database'
import { migrateToLatest } from '../migrate'

// A paper an older server left keeps marking as it did: its sections mark multiple questions all or nothing with
// 1 mark a right option and take marks for a wrong number; its answers are choice answers (no `value`).
describe.each(dialects)('migrations 0056_question_types and 0057_answer_values on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('gives sections of older papers the default marking of the new types, and answers no value', async () => {
    const opened = await openDatabaseAt(dialect, '0055_product_name_for_main')
    drop = opened.drop
    const { database, insert, db } = opened
    const now = Date.now()
    const quizId = await insert('quizzes', {
      title_en: 'Old quiz',
      title_ne: '',
      start_time: now - 86_400_000,
      end_time: null,
      duration_minutes: 10,
      is_paid_tier: 0,
      allowed_attempts: 3,
      difficulty: 'easy',
      created_at: now,
      deleted_at: null,
    })
    await insert('paper_sections', { quiz_id: quizId, position: 0, time_limit_minutes: null })

    await migrateToLatest(database)

    expect(
      await db.selectFrom('paper_sections').select(['multiple_scheme', 'partial_marks', 'numeric_negative']).execute(),
    ).toEqual([{ multiple_scheme: 'all_or_nothing', partial_marks: 100, numeric_negative: 1 }])
    await insert('paper_sections', {
      quiz_id: quizId,
      position: 1,
      time_limit_minutes: null,
      multiple_scheme: 'partial',
      partial_marks: 50,
      numeric_negative: 0,
    })
    expect(
      await db
        .selectFrom('paper_sections')
        .select(['multiple_scheme', 'partial_marks', 'numeric_negative'])
        .orderBy('position')
        .execute(),
    ).toEqual([
      { multiple_scheme: 'all_or_nothing', partial_marks: 100, numeric_negative: 1 },
      { multiple_scheme: 'partial', partial_marks: 50, numeric_negative: 0 },
    ])
  })
})
