import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { precompile } from '../db/precompiled-query'
import { isCountedAttempt } from '../db/rank-tally'

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

const selectFirstAttemptStanding = precompile((db: Kysely<DB>, quizId: number, scoreHundredths: number) =>
  db
    .selectFrom('first_attempt_scores')
    .select((eb) => [
      eb.fn.sum<number | string | null>('learners').as('participants'),
      eb.fn
        .sum<number | string | null>(
          eb.case().when('score_hundredths', '>', scoreHundredths).then(eb.ref('learners')).else(0).end(),
        )
        .as('above'),
      eb.fn
        .sum<number | string | null>(
          eb.case().when('score_hundredths', '<', scoreHundredths).then(eb.ref('learners')).else(0).end(),
        )
        .as('below'),
      eb.fn.sum<number | string | null>(eb('score_hundredths', '*', eb.ref('learners'))).as('sum'),
      eb.fn.max<number | string | null>('score_hundredths').as('highest'),
    ])
    .where('quiz_id', '=', quizId),
)

// Everyone is counted, `userId`'s own attempt included; the caller takes it out when ranking a later attempt.
export async function findFirstAttemptStanding(db: Kysely<DB>, quizId: number, scoreHundredths: number) {
  const row = (await selectFirstAttemptStanding(db, quizId, scoreHundredths)).rows[0]!
  // PostgreSQL answers sums of integers as strings.
  return {
    participants: Number(row.participants ?? 0),
    above: Number(row.above ?? 0),
    below: Number(row.below ?? 0),
    sumHundredths: Number(row.sum ?? 0),
    highestHundredths: Number(row.highest ?? 0),
  }
}

/**
 * The score of the learner's attempt in the quiz's rank tally, or undefined: their counted attempt
 * (db/rank-tally.ts: the first of an ordinary quiz, the ranked one of a live mock), once finished.
 */
export async function findCountedAttemptScore(db: Kysely<DB>, userId: number, quizId: number) {
  const row = await db
    .selectFrom('attempts as a')
    .select('a.score_hundredths')
    .where('a.user_id', '=', userId)
    .where('a.quiz_id', '=', quizId)
    .where('a.status', '=', 'finished')
    .where(isCountedAttempt('a'))
    .limit(1)
    .executeTakeFirst()
  return row?.score_hundredths ?? undefined
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
