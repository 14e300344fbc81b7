import { sql, type Kysely } from 'kysely'
import { isPostgres } from '../db/database'
import { inParts } from '../db/in-parts'
import { instituteOfNewRows } from '../db/request-scope'
import type { DB } from '../db/schema'

// Shown questions and sets for unseen-first draws: docs/decisions/039.

export async function lastShown(db: Kysely<DB>, userId: number, questionIds: readonly number[]) {
  const shown = new Map<number, number>()
  const keep = (row: { question_id: number; shown_at: number }) => {
    const at = Number(row.shown_at)
    if (at > (shown.get(row.question_id) ?? -1)) shown.set(row.question_id, at)
  }
  const alone = db.selectFrom('question_shows').select(['question_id', 'shown_at']).where('user_id', '=', userId)
  const inSets = db
    .selectFrom('set_shows as s')
    .innerJoin('shown_set_questions as q', 'q.set_id', 's.set_id')
    .select(['q.question_id', (eb) => eb.fn.max<number>('s.shown_at').as('shown_at')])
    .where('s.user_id', '=', userId)
    .groupBy('q.question_id')
  // A pool of thousands (a draw over the whole bank): the learner's own rows, one indexed read each, are fewer.
  if (questionIds.length > 500) {
    const wanted = new Set(questionIds)
    for (const row of await alone.unionAll(inSets).execute()) if (wanted.has(row.question_id)) keep(row)
    return shown
  }
  for (const part of inParts(questionIds)) {
    const rows = await alone
      .where('question_id', 'in', part)
      .unionAll(inSets.where('q.question_id', 'in', part))
      .execute()
    for (const row of rows) keep(row)
  }
  return shown
}

export interface Shown {
  userId: number
  questionId: number
  at: number
}

// In key order (no PostgreSQL deadlock); a row only moves forward, so an older flush never hides a newer show.
export const recordShown = (db: Kysely<DB>, rows: readonly Shown[]) =>
  writeShows(
    db,
    'question_shows',
    'question_id',
    rows.map((row) => [row.userId, row.questionId, row.at]),
  )

export interface SetShown {
  userId: number
  setId: number
  at: number
}

export const recordSetsShown = (db: Kysely<DB>, rows: readonly SetShown[]) =>
  writeShows(
    db,
    'set_shows',
    'set_id',
    rows.map((row) => [row.userId, row.setId, row.at]),
  )

async function writeShows(
  db: Kysely<DB>,
  table: 'question_shows' | 'set_shows',
  column: 'question_id' | 'set_id',
  rows: [userId: number, id: number, at: number][],
) {
  const json = JSON.stringify(rows.sort((a, b) => a[0] - b[0] || a[1] - b[1]))
  const [into, id] = [sql.table(table), sql.ref(column)]
  const institute = instituteOfNewRows()
  await (
    isPostgres(db)
      ? sql`insert into ${into} (user_id, ${id}, shown_at, institute_id)
        select (r->>0)::integer, (r->>1)::integer, (r->>2)::bigint, ${institute}::integer
        from jsonb_array_elements(${json}::jsonb) as r
        on conflict (user_id, ${id}) do update set shown_at = excluded.shown_at
        where ${into}.shown_at < excluded.shown_at`
      : sql`insert into ${into} (user_id, ${id}, shown_at, institute_id)
        select json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), ${institute}
        from json_each(${json}) where true
        on conflict (user_id, ${id}) do update set shown_at = excluded.shown_at
        where ${into}.shown_at < excluded.shown_at`
  ).execute(db)
}

export async function findShownSets(db: Kysely<DB>, keys: readonly string[]) {
  const ids = new Map<string, number>()
  for (const part of inParts(keys)) {
    const rows = await db.selectFrom('shown_sets').select(['id', 'set_key']).where('set_key', 'in', part).execute()
    for (const row of rows) ids.set(row.set_key, row.id)
  }
  return ids
}

// In a transaction: whoever sees the set's row sees its questions; two makers of one set make one row.
export async function ensureShownSet(trx: Kysely<DB>, key: string, questionIds: readonly number[], now: number) {
  const created = await trx
    .insertInto('shown_sets')
    .values({ set_key: key, created_at: now })
    // Unique per institute (migration 0044): no target, as the institute is the filter's, not named here.
    .onConflict((conflict) => conflict.doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!created) {
    return (await trx.selectFrom('shown_sets').select('id').where('set_key', '=', key).executeTakeFirstOrThrow()).id
  }
  const json = JSON.stringify(questionIds)
  const institute = instituteOfNewRows()
  await (
    isPostgres(trx)
      ? sql`insert into shown_set_questions (set_id, question_id, institute_id)
        select ${created.id}::integer, q::integer, ${institute}::integer
        from jsonb_array_elements_text(${json}::jsonb) as q`
      : sql`insert into shown_set_questions (set_id, question_id, institute_id)
        select ${created.id}, value, ${institute} from json_each(${json})`
  ).execute(trx)
  return created.id
}

export async function currentRevisions(db: Kysely<DB>, questionIds: readonly number[]) {
  const revisions = new Map<number, number>()
  for (const part of inParts(questionIds)) {
    const rows = await db
      .selectFrom('questions')
      .select(['id', 'revision_id'])
      .where('id', 'in', part)
      .where('deleted_at', 'is', null)
      .where('revision_id', 'is not', null)
      .execute()
    for (const row of rows) revisions.set(row.id, row.revision_id!)
  }
  return revisions
}

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
