import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openDatabaseAt, refused } from '../../../test/migration-database'
import { migrateToLatest } from '../migrate'

// A database an older server left, with a quiz learners can see: it stays published, new quizzes default to
// published too (create-from-JSON without a status), and no other status can be written.
describe.each(dialects)('migration 0017_quiz_drafts on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('publishes every quiz made before drafts and accepts only draft or published', async () => {
    const opened = await openDatabaseAt(dialect, '0016_push_timeouts')
    drop = opened.drop
    const { database, insert } = opened
    const now = Date.now()
    const quiz = {
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
    }
    await insert('quizzes', quiz)

    await migrateToLatest(database)

    const db = opened.db
    await insert('quizzes', { ...quiz, title_en: 'Draft', status: 'draft' })
    expect(await db.selectFrom('quizzes').select(['title_en', 'status']).orderBy('id').execute()).toEqual([
      { title_en: 'Old quiz', status: 'published' },
      { title_en: 'Draft', status: 'draft' },
    ])
    expect(await refused(insert('quizzes', { ...quiz, status: 'hidden' }))).toBeInstanceOf(Error)
  })
})
