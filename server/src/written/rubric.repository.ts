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

/** Marked and released answers of the question in finished attempts (of one quiz if given): how many, their marks. */
export async function markedAnswerFigures(db: Kysely<DB>, questionId: number, quizId: number | undefined) {
  const answers = db
    .selectFrom('written_answers as w')
    .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
    .where('w.question_id', '=', questionId)
    .where('w.status', 'in', ['marked', 'released'])
    .where('a.status', '=', 'finished')
    .$if(quizId !== undefined, (query) => query.where('a.quiz_id', '=', quizId!))
  const [totals, applied] = await Promise.all([
    answers
      .select((eb) => [eb.fn.countAll<number>().as('marked'), eb.fn.sum<number>('w.score_hundredths').as('gained')])
      .executeTakeFirstOrThrow(),
    answers
      .innerJoin('written_answer_items as wi', 'wi.answer_id', 'w.id')
      .select(['wi.item_id', (eb) => eb.fn.countAll<number>().as('applied')])
      .groupBy('wi.item_id')
      .execute(),
  ])
  return {
    marked: Number(totals.marked),
    gained: Number(totals.gained ?? 0),
    applied: new Map(applied.map((row) => [row.item_id, Number(row.applied)])),
  }
}

export function quizExists(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('quizzes')
    .select('id')
    .where('id', '=', quizId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
}
