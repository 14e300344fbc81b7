import { sql, type Kysely } from 'kysely'
import { sqliteTransactionOf } from '../db/database'
import { precompile } from '../db/precompiled-query'
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

/** SQLite: a whole paper's rows in one prepared statement, the question ids passed as one JSON array. */
const upsertShownFromJsonArray = precompile((db: Kysely<DB>, userId: number, questionIdsJson: string, at: number) =>
  db
    .insertInto('question_shows')
    .columns(['user_id', 'question_id', 'shown_at'])
    .expression(
      db
        .selectFrom(sql<{ value: number }>`json_each(${questionIdsJson})`.as('j'))
        .select((eb) => [
          eb.val(userId).as('user_id'),
          sql.ref<number>('j.value').as('question_id'),
          eb.val(at).as('shown_at'),
        ])
        // SQLite reads "ON CONFLICT" after a bare "FROM ..." as a join's constraint: a WHERE settles it.
        .where(sql<boolean>`1 = 1`),
    )
    .onConflict((oc) =>
      oc.columns(['user_id', 'question_id']).doUpdateSet((eb) => ({ shown_at: eb.ref('excluded.shown_at') })),
    ),
)

/** Records that the learner was shown these questions now (in question order: no deadlock between two starts). */
export async function recordShown(db: Kysely<DB>, userId: number, questionIds: readonly number[], at: number) {
  const sorted = [...new Set(questionIds)].sort((a, b) => a - b)
  // Every start writes its whole paper here, fixed or drawn. On SQLite one statement compiled once takes the rows as
  // a JSON array: building and compiling a VALUES list of a hundred rows with Kysely on every start cost more than
  // the writes (as for the practice deck, decision 021). PostgreSQL keeps multi-row statements.
  if (sqliteTransactionOf(db)) {
    await upsertShownFromJsonArray(db, userId, JSON.stringify(sorted), at)
    return
  }
  for (let start = 0; start < sorted.length; start += 500) {
    await db
      .insertInto('question_shows')
      .values(
        sorted
          .slice(start, start + 500)
          .map((questionId) => ({ user_id: userId, question_id: questionId, shown_at: at })),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'question_id']).doUpdateSet((eb) => ({ shown_at: eb.ref('excluded.shown_at') })),
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
