import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

/** A quiz's live schedule and what the leaderboard and registration need of it (never a deleted quiz or a draft). */
export function findLiveQuiz(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('quizzes')
    .select([
      'id',
      'start_time',
      'end_time',
      'duration_minutes',
      'is_paid_tier',
      'challenge_days',
      'live_starts_at',
      'live_join_minutes',
    ])
    .where('id', '=', quizId)
    .where('deleted_at', 'is', null)
    .where('status', '=', 'published')
    .executeTakeFirst()
}

export type LiveQuizRow = NonNullable<Awaited<ReturnType<typeof findLiveQuiz>>>

export async function insertRegistration(db: Kysely<DB>, quizId: number, userId: number, now: number) {
  await db
    .insertInto('live_registrations')
    .values({ quiz_id: quizId, user_id: userId, created_at: now })
    .onConflict((oc) => oc.columns(['quiz_id', 'user_id']).doNothing())
    .execute()
}

export async function deleteRegistration(db: Kysely<DB>, quizId: number, userId: number) {
  await db.deleteFrom('live_registrations').where('quiz_id', '=', quizId).where('user_id', '=', userId).execute()
}

/** Ranked attempts started, finished or not: the board's participants before the common end. */
export async function countRankedAttempts(db: Kysely<DB>, quizId: number) {
  const row = await db
    .selectFrom('attempts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('quiz_id', '=', quizId)
    .where('ranked', '=', 1)
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}

export async function findBoardNames(db: Kysely<DB>, userIds: readonly number[]) {
  if (userIds.length === 0) return new Map<number, BoardNameRow>()
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'full_name', 'show_on_leaderboards'])
    .where('id', 'in', [...new Set(userIds)])
    .execute()
  return new Map(rows.map((row) => [row.id, row]))
}

export interface BoardNameRow {
  username: string
  full_name: string
  show_on_leaderboards: number
}

export function listRankedPapers(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('attempts')
    .select('revision_ids')
    .distinct()
    .where('quiz_id', '=', quizId)
    .where('ranked', '=', 1)
    .execute()
}

export async function hasOpenFlagOn(db: Kysely<DB>, revisionIds: readonly number[]) {
  for (let start = 0; start < revisionIds.length; start += 500) {
    const open = await db
      .selectFrom('flags')
      .select('id')
      .where('status', '=', 'open')
      .where('revision_id', 'in', revisionIds.slice(start, start + 500))
      .limit(1)
      .executeTakeFirst()
    if (open) return true
  }
  return false
}

/** The national mock a quiz is an institute's copy of (a table of the deployment's, docs/decisions/102). */
export function findNationalTaker(db: Kysely<DB>, quizId: number) {
  return db.selectFrom('national_takers').select('national_mock_id').where('quiz_id', '=', quizId).executeTakeFirst()
}
