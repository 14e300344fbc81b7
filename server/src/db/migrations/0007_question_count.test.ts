import { describe, expect, it } from 'vitest'
import { fromSqlite } from '../database'
import { knownMigrationNames, migrateToLatest, migrateUpTo } from '../migrate'
import { SQLite } from '../sqlite-driver'

// Quizzes made before the stored count: the migration counts their live questions (not deleted, with a revision).
describe('migration 0007_question_count on a database with questions', () => {
  it('stores each quiz its count of live questions', async () => {
    expect(knownMigrationNames).toContain('0007_question_count')
    const database = fromSqlite(new SQLite(':memory:'))
    const { db } = database
    await migrateUpTo(database, '0006_audit_and_logins')

    const now = Date.now()
    const quizIds: number[] = []
    for (const title of ['Three live', 'None']) {
      const quiz = await db
        .insertInto('quizzes')
        .values({
          title_en: title,
          title_ne: '',
          start_time: now,
          end_time: null,
          duration_minutes: 10,
          is_paid_tier: 0,
          allowed_attempts: 1,
          difficulty: 'easy',
          created_at: now,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      quizIds.push(quiz.id)
    }
    // Five questions at the first quiz: three live, one deleted, one without a revision yet.
    for (let position = 1; position <= 5; position++) {
      const question = await db
        .insertInto('questions')
        // @ts-expect-error quiz_id and position are the columns of the time before migration 0010
        .values({ quiz_id: quizIds[0]!, position, revision_id: null, deleted_at: position === 4 ? now : null })
        .returning('id')
        .executeTakeFirstOrThrow()
      if (position === 5) continue
      const revision = await db
        .insertInto('question_revisions')
        .values({
          question_id: question.id,
          text_en: `Q${position}`,
          text_ne: '',
          hint_en: null,
          hint_ne: '',
          topic: '',
          image_svg: null,
          image_caption_en: '',
          image_caption_ne: '',
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await db.updateTable('questions').set({ revision_id: revision.id }).where('id', '=', question.id).execute()
    }

    await migrateToLatest(database)

    expect(await db.selectFrom('quizzes').select(['id', 'question_count']).orderBy('id').execute()).toEqual([
      { id: quizIds[0], question_count: 3 },
      { id: quizIds[1], question_count: 0 },
    ])
    await database.destroy()
  })
})
