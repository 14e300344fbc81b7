import type { Kysely } from 'kysely'
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
 * Writes many learners' shown questions at once (the show log's flush). Each (learner, question) at most once per
 * call, in key order so that two processes' flushes take row locks in one order (no deadlock on PostgreSQL); a row
 * only moves forward in time, so a slower process's older flush never hides a newer show.
 */
export async function recordShown(db: Kysely<DB>, rows: readonly Shown[]) {
  const sorted = [...rows].sort((a, b) => a.userId - b.userId || a.questionId - b.questionId)
  for (let start = 0; start < sorted.length; start += 1000) {
    await db
      .insertInto('question_shows')
      .values(
        sorted
          .slice(start, start + 1000)
          .map((row) => ({ user_id: row.userId, question_id: row.questionId, shown_at: row.at })),
      )
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'question_id'])
          .doUpdateSet((eb) => ({ shown_at: eb.ref('excluded.shown_at') }))
          .whereRef('question_shows.shown_at', '<', 'excluded.shown_at'),
      )
      .execute()
  }
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
