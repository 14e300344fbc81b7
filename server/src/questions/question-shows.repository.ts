import { sql, type Kysely } from 'kysely'
import { isPostgres } from '../db/database'
import type { DB } from '../db/schema'

// When each learner was last shown each question (in any attempt's paper): draws give unseen questions first, then
// those shown longest ago.

/** When the learner was last shown each of the questions that they have been shown. */
export async function lastShown(db: Kysely<DB>, userId: number, questionIds: readonly number[]) {
  const shown = new Map<number, number>()
  // A pool of thousands (a draw over the whole bank): the learner's own rows, one indexed read, are fewer.
  if (questionIds.length > 500) {
    const wanted = new Set(questionIds)
    const rows = await db
      .selectFrom('question_shows')
      .select(['question_id', 'shown_at'])
      .where('user_id', '=', userId)
      .execute()
    for (const row of rows) if (wanted.has(row.question_id)) shown.set(row.question_id, Number(row.shown_at))
    return shown
  }
  for (let start = 0; start < questionIds.length; start += 500) {
    const rows = await db
      .selectFrom('question_shows')
      .select(['question_id', 'shown_at'])
      .where('user_id', '=', userId)
      .where('question_id', 'in', questionIds.slice(start, start + 500))
      .execute()
    for (const row of rows) shown.set(row.question_id, Number(row.shown_at))
  }
  return shown
}

/** One learner shown one question at one time. */
export interface Shown {
  userId: number
  questionId: number
  at: number
}

/**
 * Writes a chunk of learners' shown questions (the show log's flush): each (learner, question) at most once, in key
 * order so that two processes' flushes take row locks in one order (no deadlock on PostgreSQL). A row only moves
 * forward in time, so a slower process's older flush never hides a newer show. The rows travel as one JSON
 * parameter, unpacked by the database, as the notifications' do: a VALUES list cost Kysely more than the writes.
 */
export async function recordShown(db: Kysely<DB>, rows: readonly Shown[]) {
  const json = JSON.stringify(
    [...rows]
      .sort((a, b) => a.userId - b.userId || a.questionId - b.questionId)
      .map((row) => [row.userId, row.questionId, row.at]),
  )
  await (
    isPostgres(db)
      ? sql`insert into question_shows (user_id, question_id, shown_at)
        select (r->>0)::integer, (r->>1)::integer, (r->>2)::bigint from jsonb_array_elements(${json}::jsonb) as r
        on conflict (user_id, question_id) do update set shown_at = excluded.shown_at
        where question_shows.shown_at < excluded.shown_at`
      : sql`insert into question_shows (user_id, question_id, shown_at)
        select json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
        from json_each(${json}) where true
        on conflict (user_id, question_id) do update set shown_at = excluded.shown_at
        where question_shows.shown_at < excluded.shown_at`
  ).execute(db)
}

/** The current revision of each live question. */
export async function currentRevisions(db: Kysely<DB>, questionIds: readonly number[]) {
  const revisions = new Map<number, number>()
  for (let start = 0; start < questionIds.length; start += 500) {
    const rows = await db
      .selectFrom('questions')
      .select(['id', 'revision_id'])
      .where('id', 'in', questionIds.slice(start, start + 500))
      .where('deleted_at', 'is', null)
      .where('revision_id', 'is not', null)
      .execute()
    for (const row of rows) revisions.set(row.id, row.revision_id!)
  }
  return revisions
}

/** Stores a frozen paper's draw unless another start stored one first; returns the one that holds. */
export async function freezeDraw(db: Kysely<DB>, quizId: number, draw: string) {
  await db
    .updateTable('quizzes')
    .set({ frozen_draw: draw })
    .where('id', '=', quizId)
    .where('frozen_draw', 'is', null)
    .execute()
  const row = await db.selectFrom('quizzes').select('frozen_draw').where('id', '=', quizId).executeTakeFirstOrThrow()
  return row.frozen_draw ?? draw
}
