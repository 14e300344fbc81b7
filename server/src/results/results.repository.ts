import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { precompile } from '../db/precompiled-query'

/** The learner's finished attempts (`a`) joined to their quizzes (`q`), deleted quizzes included. */
const finishedAttemptsOf = (db: Kysely<DB>, userId: number) =>
  db
    .selectFrom('attempts as a')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .where('a.user_id', '=', userId)
    // Written into the SQL, like IN_PROGRESS (db/in-progress.ts): a compiled statement must not bind it.
    .where('a.status', '=', sql.lit('finished'))

/** The results list's query, unrun: db/institute-indexes.test.ts explains it as the server sends it. */
export const finishedAttemptsListQuery = (db: Kysely<DB>, userId: number) =>
  finishedAttemptsOf(db, userId)
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

// Compiled once, read on the reader (docs/decisions/076): the results list built three queries with Kysely each time.
const selectFinishedAttempts = precompile(finishedAttemptsListQuery)

export async function listFinishedAttempts(db: Kysely<DB>, userId: number) {
  return (await selectFinishedAttempts(db, userId)).rows
}

// The report card's reads are compiled once (db/precompiled-query.ts): it is one of DESIGN.md's budgeted routes.
const selectAttemptOfLearner = precompile((db: Kysely<DB>, userId: number, attemptId: number) =>
  db
    .selectFrom('attempts as a')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .selectAll('a')
    .select(['q.title_en', 'q.title_ne', 'q.challenge_days', 'q.live_starts_at', 'q.live_join_minutes'])
    .select(['q.duration_minutes', 'q.end_time', 'q.status as quiz_status', 'q.is_paid_tier'])
    // Its written pages' window holds the choice key back (`pagesCloseAt`, attempts/withheld-keys.service.ts).
    .select('q.upload_grace_minutes')
    .where('a.id', '=', attemptId)
    .where('a.user_id', '=', userId),
)

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
    .select(['aa.attempt_id', 'aa.question_id', 'aa.option_id', 'aa.value'])
    .where('a.user_id', '=', userId)
    .where('a.status', '=', 'finished')
    .execute()
}

export async function findRevisionKeys(db: Kysely<DB>, revisionIds: readonly number[]) {
  if (revisionIds.length === 0) return []
  return db
    .selectFrom('question_revisions as r')
    .leftJoin('question_options as o', (join) => join.onRef('o.revision_id', '=', 'r.id').on('o.is_correct', '=', 1))
    .select(['r.id', 'r.question_id', 'r.topic', 'r.type', 'o.id as correct_option_id'])
    .where('r.id', 'in', [...new Set(revisionIds)])
    .execute()
}

export interface WrittenPartRow {
  marks: number
  max_marks: number
  released: number
  total: number
}

const writtenPartColumns = [
  'w.attempt_id',
  sql<string>`sum(case when w.status = 'released' then coalesce(w.score_hundredths, 0) else 0 end)`.as('marks'),
  sql<string>`sum(coalesce(r.marks, 0))`.as('max_marks'),
  sql<string>`sum(case when w.status = 'released' then 1 else 0 end)`.as('released'),
  sql<string>`count(*)`.as('total'),
] as const

// PostgreSQL answers sums and counts as bigint strings.
const toWrittenPart = (row: { marks: string; max_marks: string; released: string; total: string }): WrittenPartRow => ({
  marks: Number(row.marks),
  max_marks: Number(row.max_marks),
  released: Number(row.released),
  total: Number(row.total),
})

const selectWrittenPartsOfLearner = precompile((db: Kysely<DB>, userId: number) =>
  db
    .selectFrom('written_answers as w')
    .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
    .innerJoin('question_revisions as r', 'r.id', 'w.revision_id')
    .select(writtenPartColumns)
    .where('a.user_id', '=', userId)
    .where('a.status', '=', sql.lit('finished'))
    .groupBy('w.attempt_id'),
)

export async function findWrittenPartsOfLearner(db: Kysely<DB>, userId: number) {
  const { rows } = await selectWrittenPartsOfLearner(db, userId)
  return new Map(rows.map((row) => [row.attempt_id, toWrittenPart(row)]))
}

/** Each attempt's written part from its answer rows: released marks, possible marks, released of how many. */
export async function findWrittenParts(db: Kysely<DB>, attemptIds: readonly number[]) {
  const parts = new Map<number, WrittenPartRow>()
  for (let at = 0; at < attemptIds.length; at += 500) {
    const rows = await db
      .selectFrom('written_answers as w')
      .innerJoin('question_revisions as r', 'r.id', 'w.revision_id')
      .select(writtenPartColumns)
      .where('w.attempt_id', 'in', attemptIds.slice(at, at + 500))
      .groupBy('w.attempt_id')
      .execute()
    for (const row of rows) parts.set(row.attempt_id, toWrittenPart(row))
  }
  return parts
}
