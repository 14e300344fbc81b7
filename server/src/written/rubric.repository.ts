import type { Insertable, Kysely } from 'kysely'
import type { DB, RubricGroupTable, RubricItemTable } from '../db/schema'

/** The live question's current revision, as a rubric needs it. */
export function findRubricQuestion(db: Kysely<DB>, questionId: number, { lock = false } = {}) {
  return db
    .selectFrom('questions as q')
    .innerJoin('question_revisions as r', 'r.id', 'q.revision_id')
    .select(['q.id', 'r.type', 'r.marks', 'r.text_en'])
    .where('q.id', '=', questionId)
    .where('q.deleted_at', 'is', null)
    .$if(lock, (query) => query.forUpdate('q'))
    .executeTakeFirst()
}

/** The stored rubric, its groups and items in order; no row: undefined (the default rubric). */
export async function findRubric(db: Kysely<DB>, questionId: number) {
  const row = await db.selectFrom('rubrics').selectAll().where('question_id', '=', questionId).executeTakeFirst()
  const groups = await db
    .selectFrom('rubric_groups')
    .selectAll()
    .where('question_id', '=', questionId)
    .orderBy('position')
    .execute()
  const items = await db
    .selectFrom('rubric_items')
    .selectAll()
    .where('question_id', '=', questionId)
    .orderBy('position')
    .execute()
  return { row, groups, items }
}

export async function upsertRubric(
  db: Kysely<DB>,
  rubric: { question_id: number; scoring: 'positive' | 'negative'; floor: number | null; ceiling: number | null },
  revision: number,
  now: number,
) {
  const values = { scoring: rubric.scoring, floor: rubric.floor, ceiling: rubric.ceiling, revision, updated_at: now }
  await db
    .insertInto('rubrics')
    .values({ question_id: rubric.question_id, ...values })
    .onConflict((oc) => oc.column('question_id').doUpdateSet(values))
    .execute()
}

export async function insertRubricGroup(db: Kysely<DB>, group: Insertable<RubricGroupTable>) {
  const row = await db.insertInto('rubric_groups').values(group).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function updateRubricGroup(db: Kysely<DB>, id: number, group: Omit<Insertable<RubricGroupTable>, 'id'>) {
  await db.updateTable('rubric_groups').set(group).where('id', '=', id).execute()
}

export async function insertRubricItem(db: Kysely<DB>, item: Insertable<RubricItemTable>) {
  const row = await db.insertInto('rubric_items').values(item).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function updateRubricItem(db: Kysely<DB>, id: number, item: Omit<Insertable<RubricItemTable>, 'id'>) {
  await db.updateTable('rubric_items').set(item).where('id', '=', id).execute()
}

/** Answers holding a deleted item lose it (written_answer_items cascade). */
export async function deleteRubricItems(db: Kysely<DB>, ids: readonly number[]) {
  if (ids.length > 0) await db.deleteFrom('rubric_items').where('id', 'in', ids).execute()
}

export async function deleteRubricGroups(db: Kysely<DB>, ids: readonly number[]) {
  if (ids.length > 0) await db.deleteFrom('rubric_groups').where('id', 'in', ids).execute()
}
