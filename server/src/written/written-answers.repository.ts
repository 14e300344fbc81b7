import type { Insertable, Kysely } from 'kysely'
import type { DB, WrittenRescoreTable } from '../db/schema'

const CHUNK = 500
const chunks = <T>(items: readonly T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, index) => items.slice(index * CHUNK, (index + 1) * CHUNK))

export async function insertWrittenAnswer(
  db: Kysely<DB>,
  answer: { attempt_id: number; question_id: number; revision_id: number; text?: string; word_count?: number },
  now: number,
) {
  const row = await db
    .insertInto('written_answers')
    .values({ ...answer, score_hundredths: null, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export function findWrittenAnswer(db: Kysely<DB>, answerId: number) {
  return db
    .selectFrom('written_answers as w')
    .innerJoin('question_revisions as r', 'r.id', 'w.revision_id')
    .select(['w.id', 'w.attempt_id', 'w.question_id', 'w.status', 'w.score_hundredths', 'w.adjustment', 'r.marks'])
    .where('w.id', '=', answerId)
    .executeTakeFirst()
}

export async function listAnswerItems(db: Kysely<DB>, answerIds: readonly number[]) {
  const byAnswer = new Map<number, number[]>(answerIds.map((id) => [id, []]))
  for (const part of chunks(answerIds))
    for (const row of await db
      .selectFrom('written_answer_items')
      .select(['answer_id', 'item_id'])
      .where('answer_id', 'in', part)
      .orderBy('item_id')
      .execute())
      byAnswer.get(row.answer_id)?.push(row.item_id)
  return byAnswer
}

/** A mark's items, adjustment, score and rubric revision replace the ones before. */
export async function storeEvaluation(
  db: Kysely<DB>,
  answerId: number,
  evaluation: {
    items: readonly number[]
    adjustment: number
    score: number
    rubricRevision: number
    comment: { en: string; ne: string } | null
    markedBy: number | null
  },
  now: number,
  /** A released answer marked again (an accepted regrade) stays released; otherwise a released one is left alone. */
  { released = false } = {},
) {
  await db.deleteFrom('written_answer_items').where('answer_id', '=', answerId).execute()
  const items = [...new Set(evaluation.items)]
  if (items.length > 0)
    await db
      .insertInto('written_answer_items')
      .values(items.map((itemId) => ({ answer_id: answerId, item_id: itemId })))
      .execute()
  await db
    .updateTable('written_answers')
    .set({
      status: released ? 'released' : 'marked',
      adjustment: evaluation.adjustment,
      score_hundredths: evaluation.score,
      rubric_revision: evaluation.rubricRevision,
      comment_en: evaluation.comment?.en ?? null,
      comment_ne: evaluation.comment?.ne ?? null,
      marked_by: evaluation.markedBy,
      marked_at: now,
      claimed_by: null,
      claimed_until: null,
      updated_at: now,
    })
    .where('id', '=', answerId)
    .$if(released, (query) => query.where('status', '=', 'released'))
    .$if(!released, (query) => query.where('status', '!=', 'released'))
    .execute()
}

export async function setReleased(db: Kysely<DB>, answerIds: readonly number[], now: number) {
  for (const part of chunks(answerIds))
    await db
      .updateTable('written_answers')
      .set({ status: 'released', released_at: now, updated_at: now })
      .where('id', 'in', part)
      .where('status', '=', 'marked')
      .execute()
}

export interface MarkedAnswer {
  id: number
  attempt_id: number
  status: 'marked' | 'released'
  score_hundredths: number
  adjustment: number
  marks: number
  attempt: { id: number; quiz_id: number; user_id: number }
}

/** The question's marked and released answers; with `itemIds`, only those holding one of them. */
export async function listMarkedAnswers(
  db: Kysely<DB>,
  questionId: number,
  itemIds?: readonly number[],
): Promise<MarkedAnswer[]> {
  if (itemIds && itemIds.length === 0) return []
  const rows = await db
    .selectFrom('written_answers as w')
    .innerJoin('question_revisions as r', 'r.id', 'w.revision_id')
    .innerJoin('attempts as a', 'a.id', 'w.attempt_id')
    .select(['w.id', 'w.attempt_id', 'w.status', 'w.score_hundredths', 'w.adjustment', 'r.marks'])
    .select(['a.quiz_id', 'a.user_id'])
    .where('w.question_id', '=', questionId)
    .where('w.status', 'in', ['marked', 'released'])
    .$if(itemIds !== undefined, (query) =>
      query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('written_answer_items as wi')
            .select('wi.answer_id')
            .whereRef('wi.answer_id', '=', 'w.id')
            .where('wi.item_id', 'in', itemIds!),
        ),
      ),
    )
    .orderBy('w.id')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    attempt_id: row.attempt_id,
    status: row.status as 'marked' | 'released',
    score_hundredths: row.score_hundredths ?? 0,
    adjustment: row.adjustment,
    marks: row.marks ?? 0,
    attempt: {
      id: row.attempt_id,
      quiz_id: row.quiz_id,
      user_id: row.user_id,
    },
  }))
}

export async function setAnswerScores(
  db: Kysely<DB>,
  scores: readonly { id: number; score: number }[],
  rubricRevision: number,
  now: number,
) {
  for (const { id, score } of scores)
    await db
      .updateTable('written_answers')
      .set({ score_hundredths: score, rubric_revision: rubricRevision, updated_at: now })
      .where('id', '=', id)
      .execute()
}

export async function insertRescores(db: Kysely<DB>, rows: readonly Insertable<WrittenRescoreTable>[]) {
  for (const part of chunks(rows)) await db.insertInto('written_rescores').values(part).execute()
}

export function listRescores(db: Kysely<DB>, answerId: number) {
  return db.selectFrom('written_rescores').selectAll().where('answer_id', '=', answerId).orderBy('id').execute()
}

/** The released written marks of an attempt's answers, and how many of its written questions are released. */
export async function releasedWrittenOf(db: Kysely<DB>, attemptId: number) {
  return db
    .selectFrom('written_answers')
    .select(['question_id', 'score_hundredths'])
    .where('attempt_id', '=', attemptId)
    .where('status', '=', 'released')
    .execute()
}

export async function quizTitles(db: Kysely<DB>, quizIds: readonly number[]) {
  const titles = new Map<number, { en: string; ne: string }>()
  for (const part of chunks([...new Set(quizIds)]))
    for (const row of await db
      .selectFrom('quizzes')
      .select(['id', 'title_en', 'title_ne'])
      .where('id', 'in', part)
      .execute())
      titles.set(row.id, { en: row.title_en, ne: row.title_ne || row.title_en })
  return titles
}
