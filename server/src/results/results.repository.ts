import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { precompile } from '../db/precompiled-query'

/** The learner's finished attempts (`a`) joined to their quizzes (`q`), deleted quizzes included. */
const finishedAttemptsOf = (db: Kysely<DB>, userId: number) =>
  db
    .selectFrom('attempts as a')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .where('a.user_id', '=', userId)
    .where('a.status', '=', 'finished')

export function listFinishedAttempts(db: Kysely<DB>, userId: number) {
  return finishedAttemptsOf(db, userId)
    .select([
      'a.id',
      'a.quiz_id',
      'a.attempt_number',
      'a.score_hundredths',
      'a.finished_at',
      'a.ranked',
      'a.mode',
      'q.title_en',
      'q.title_ne',
    ])
    .orderBy('a.quiz_id')
    .orderBy('a.attempt_number')
    .execute()
}

// The report card's reads are compiled once (db/precompiled-query.ts): it is one of DESIGN.md's budgeted routes.
const selectAttemptOfLearner = precompile((db: Kysely<DB>, userId: number, attemptId: number) =>
  db
    .selectFrom('attempts as a')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .selectAll('a')
    .select(['q.title_en', 'q.title_ne', 'q.challenge_days', 'q.live_starts_at', 'q.live_join_minutes'])
    .select(['q.duration_minutes', 'q.end_time', 'q.status as quiz_status', 'q.is_paid_tier'])
    .where('a.id', '=', attemptId)
    .where('a.user_id', '=', userId),
)

/** Another learner's attempt reads as missing. */
export async function findAttemptOfLearner(db: Kysely<DB>, userId: number, attemptId: number) {
  return (await selectAttemptOfLearner(db, userId, attemptId)).rows[0]
}

export function listFinishedAttemptsOldestFirst(db: Kysely<DB>, userId: number) {
  return finishedAttemptsOf(db, userId)
    .select([
      'a.id',
      'a.quiz_id',
      'a.revision_ids',
      'a.sections',
      'a.score_hundredths',
      'a.correct',
      'a.incorrect',
      'a.unanswered',
      'a.finished_at',
      'a.deadline',
      'a.mode',
      'a.user_id',
      'q.title_en',
      'q.title_ne',
      // What decides whether the attempt's key is withheld (attempts/withheld-keys.service.ts).
      'q.live_starts_at',
      'q.live_join_minutes',
      'q.duration_minutes',
      'q.end_time',
      'q.status as quiz_status',
      'q.is_paid_tier',
    ])
    .orderBy('a.finished_at')
    .orderBy('a.id')
    .execute()
}

export function listFinishedAnswers(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('attempt_answers as aa')
    .innerJoin('attempts as a', 'a.id', 'aa.attempt_id')
    .select(['aa.attempt_id', 'aa.question_id', 'aa.option_id'])
    .where('a.user_id', '=', userId)
    .where('a.status', '=', 'finished')
    .execute()
}

export async function findRevisionKeys(db: Kysely<DB>, revisionIds: readonly number[]) {
  if (revisionIds.length === 0) return []
  return db
    .selectFrom('question_revisions as r')
    .leftJoin('question_options as o', (join) => join.onRef('o.revision_id', '=', 'r.id').on('o.is_correct', '=', 1))
    .select(['r.id', 'r.question_id', 'r.topic', 'o.id as correct_option_id'])
    .where('r.id', 'in', [...new Set(revisionIds)])
    .execute()
}
