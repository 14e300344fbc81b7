import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

/** The learner's finished attempts with their quiz titles, deleted quizzes included. */
export function listFinishedAttempts(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('attempts as a')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .select([
      'a.id',
      'a.quiz_id',
      'a.attempt_number',
      'a.score_hundredths',
      'a.finished_at',
      'q.title_en',
      'q.title_ne',
    ])
    .where('a.user_id', '=', userId)
    .where('a.status', '=', 'finished')
    .orderBy('a.quiz_id')
    .orderBy('a.attempt_number')
    .execute()
}

/** One attempt of this learner (another learner's reads as missing), with its quiz's title. */
export function findAttemptOfLearner(db: Kysely<DB>, userId: number, attemptId: number) {
  return db
    .selectFrom('attempts as a')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .selectAll('a')
    .select(['q.title_en', 'q.title_ne'])
    .where('a.id', '=', attemptId)
    .where('a.user_id', '=', userId)
    .executeTakeFirst()
}
