import type { Kysely } from 'kysely'
import { IN_PROGRESS } from '../db/in-progress'
import type { DB } from '../db/schema'

/** The largest extra time any learner has: a learner still free to join a live mock may have that much. */
export async function findLargestExtraTime(db: Kysely<DB>) {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.max('extra_time_percent').as('largest'))
    .executeTakeFirst()
  return Number(row?.largest ?? 0)
}

export async function findLatestRankedDeadline(db: Kysely<DB>, quizId: number) {
  const row = await db
    .selectFrom('attempts')
    .select((eb) => eb.fn.max('deadline').as('last'))
    .where('quiz_id', '=', quizId)
    .where('ranked', '=', 1)
    .executeTakeFirst()
  return row?.last == null ? null : Number(row.last)
}

/** Live quizzes still able to withhold their key: started, and 300 % extra time plus `graceMs` not yet past. */
export function listRecentLiveQuizzes(db: Kysely<DB>, now: number, graceMs: number) {
  return db
    .selectFrom('quizzes')
    .select(['id', 'live_starts_at', 'live_join_minutes', 'duration_minutes', 'end_time'])
    .where('deleted_at', 'is', null)
    .where('live_starts_at', 'is not', null)
    .where('live_starts_at', '<=', now)
    .where((eb) => eb(eb('live_starts_at', '+', eb('duration_minutes', '*', 4 * 60_000)), '>=', now - graceMs))
    .execute()
}

/** The papers (JSON arrays of revision ids) the quiz's attempts sat: one for a frozen live paper. */
export async function listQuizPapers(db: Kysely<DB>, quizId: number) {
  return db.selectFrom('attempts').select('revision_ids').distinct().where('quiz_id', '=', quizId).execute()
}

export async function listPapersInProgress(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('attempts')
    .select('revision_ids')
    .where('user_id', '=', userId)
    .where('status', '=', IN_PROGRESS)
    .execute()
}

/** Online written attempts submitted within the largest upload grace (an hour), for `pagesCloseAt`. */
export function listRecentWrittenAttempts(db: Kysely<DB>, userId: number, now: number) {
  return db
    .selectFrom('attempts as a')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .select(['a.revision_ids', 'a.status', 'a.deadline', 'a.finished_at', 'a.mode', 'q.upload_grace_minutes'])
    .where('a.user_id', '=', userId)
    .where('a.status', '=', 'finished')
    .where('a.mode', '=', 'online')
    .where('a.finished_at', '>=', now - 60 * 60_000)
    .where((eb) =>
      eb.exists(eb.selectFrom('written_answers as w').select('w.id').whereRef('w.attempt_id', '=', 'a.id')),
    )
    .execute()
}

/** A live mock's upload grace when its paper has written questions (decision 090); one ranked attempt tells. */
export async function findWrittenUploadGrace(db: Kysely<DB>, quizId: number): Promise<number | null> {
  const row = await db
    .selectFrom('quizzes as q')
    .select('q.upload_grace_minutes')
    .where('q.id', '=', quizId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('written_answers as w')
          .select('w.id')
          .where(
            'w.attempt_id',
            '=',
            eb
              .selectFrom('attempts as a')
              .select('a.id')
              .whereRef('a.quiz_id', '=', 'q.id')
              .where('a.ranked', '=', 1)
              .where('a.status', '=', 'finished')
              .limit(1),
          ),
      ),
    )
    .executeTakeFirst()
  return row?.upload_grace_minutes ?? null
}

/** One attempt as the upload window's rules (`pagesCloseAt`) need it, if it has written questions (a finish gives each a row). */
export function findWrittenAttempt(db: Kysely<DB>, attemptId: number) {
  return db
    .selectFrom('attempts as a')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .select(['a.status', 'a.deadline', 'a.finished_at', 'a.mode', 'q.upload_grace_minutes'])
    .where('a.id', '=', attemptId)
    .where((eb) =>
      eb.exists(eb.selectFrom('written_answers as w').select('w.id').whereRef('w.attempt_id', '=', 'a.id')),
    )
    .executeTakeFirst()
}

export async function listQuestionsOfRevisions(db: Kysely<DB>, revisionIds: readonly number[]) {
  const questionIds = new Set<number>()
  for (let start = 0; start < revisionIds.length; start += 500) {
    const rows = await db
      .selectFrom('question_revisions')
      .select('question_id')
      .where('id', 'in', revisionIds.slice(start, start + 500))
      .execute()
    for (const row of rows) questionIds.add(row.question_id)
  }
  return questionIds
}

/** Paper attempts whose key may be withheld: a quiz not published, or paid-tier (the caller checks access). */
export function listWithheldPaperAttempts(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('attempts as a')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .select(['a.revision_ids', 'q.status'])
    .where('a.user_id', '=', userId)
    .where('a.mode', '=', 'paper')
    .where((eb) => eb.or([eb('q.status', '<>', 'published'), eb('q.is_paid_tier', '=', 1)]))
    .execute()
}
