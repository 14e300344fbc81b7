import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

/** What the paper ahead needs of a live mock (never a deleted quiz or a draft). */
export function findLivePaperQuiz(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('quizzes')
    .select([
      'id',
      'duration_minutes',
      'is_paid_tier',
      'live_starts_at',
      'live_join_minutes',
      'draw_mode',
      'frozen_draw',
      'question_set_version',
    ])
    .where('id', '=', quizId)
    .where('deleted_at', 'is', null)
    .where('status', '=', 'published')
    .executeTakeFirst()
}

export async function isRegistered(db: Kysely<DB>, quizId: number, userId: number) {
  const row = await db
    .selectFrom('live_registrations')
    .select('user_id')
    .where('quiz_id', '=', quizId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row !== undefined
}
