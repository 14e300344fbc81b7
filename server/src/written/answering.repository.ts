import { sql, type Kysely } from 'kysely'
import type { DB } from '../db/schema'

/** The learner's attempt with what answering needs: its revisions, deadline and the quiz's grace for photos. */
export function findLearnerAttempt(db: Kysely<DB>, userId: number, attemptId: number) {
  return db
    .selectFrom('attempts as a')
    .innerJoin('quizzes as q', 'q.id', 'a.quiz_id')
    .select(['a.id', 'a.status', 'a.deadline', 'a.finished_at', 'a.revision_ids', 'a.mode', 'q.upload_grace_minutes'])
    .where('a.id', '=', attemptId)
    .where('a.user_id', '=', userId)
    .executeTakeFirst()
}

/** The written revision of `questionId` among the attempt's revisions, if it is one. */
export function findWrittenRevision(db: Kysely<DB>, revisionIds: readonly number[], questionId: number) {
  if (revisionIds.length === 0) return Promise.resolve(undefined)
  return db
    .selectFrom('question_revisions')
    .select(['id', 'question_id', 'marks', 'model_answer_en', 'model_answer_ne', 'maths'])
    .where('id', 'in', revisionIds)
    .where('question_id', '=', questionId)
    .where('type', '=', 'written')
    .executeTakeFirst()
}

/** The answer of an attempt's question, made empty if it has none; locked on PostgreSQL for the caller's change. */
export async function openAnswer(
  db: Kysely<DB>,
  answer: { attempt_id: number; question_id: number; revision_id: number },
  now: number,
  lock: boolean,
) {
  await db
    .insertInto('written_answers')
    .values({
      ...answer,
      score_hundredths: null,
      comment_en: null,
      comment_ne: null,
      rubric_revision: null,
      marked_by: null,
      marked_at: null,
      released_at: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.columns(['attempt_id', 'question_id']).doNothing())
    .execute()
  return db
    .selectFrom('written_answers')
    .select(['id', 'status'])
    .where('attempt_id', '=', answer.attempt_id)
    .where('question_id', '=', answer.question_id)
    .$if(lock, (query) => query.forUpdate())
    .executeTakeFirstOrThrow()
}

/** Every written question of the attempt gets an answer row, empty where the learner wrote nothing. */
export async function openAllAnswers(db: Kysely<DB>, attemptId: number, revisionIds: readonly number[], now: number) {
  if (revisionIds.length === 0) return
  await db
    .insertInto('written_answers')
    .columns(['attempt_id', 'question_id', 'revision_id', 'created_at', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('question_revisions')
        .select([
          sql.lit(attemptId).as('attempt_id'),
          'question_id',
          'id',
          sql.lit(now).as('created_at'),
          sql.lit(now).as('updated_at'),
        ])
        .where('id', 'in', revisionIds)
        .where('type', '=', 'written'),
    )
    .onConflict((conflict) => conflict.columns(['attempt_id', 'question_id']).doNothing())
    .execute()
}

export async function setAnswerText(db: Kysely<DB>, answerId: number, text: string, wordCount: number, now: number) {
  await db
    .updateTable('written_answers')
    .set({ text, word_count: wordCount, updated_at: now })
    .where('id', '=', answerId)
    .execute()
}

export function findAnswer(db: Kysely<DB>, attemptId: number, questionId: number) {
  return db
    .selectFrom('written_answers')
    .selectAll()
    .where('attempt_id', '=', attemptId)
    .where('question_id', '=', questionId)
    .executeTakeFirst()
}

/** The answer's pages in order, with their images' sizes. */
export function listPages(db: Kysely<DB>, answerId: number) {
  return db
    .selectFrom('written_answer_pages as p')
    .innerJoin('page_images as i', 'i.hash', 'p.image_hash')
    .select(['p.id', 'p.number', 'p.image_hash', 'p.annotations', 'i.width', 'i.height'])
    .where('p.answer_id', '=', answerId)
    .orderBy('p.number')
    .orderBy('p.id')
    .execute()
}

/**
 * The attempt's written answers with their pages, one row a page (a row with null page fields for an answer without
 * one), in page order: one statement for the whole exam screen's resume.
 */
export function listSavedAnswers(db: Kysely<DB>, attemptId: number) {
  return db
    .selectFrom('written_answers as w')
    .leftJoin('written_answer_pages as p', 'p.answer_id', 'w.id')
    .leftJoin('page_images as i', 'i.hash', 'p.image_hash')
    .select(['w.question_id', 'w.text', 'w.word_count', 'p.id as page_id', 'p.number', 'i.width', 'i.height'])
    .where('w.attempt_id', '=', attemptId)
    .orderBy('w.question_id')
    .orderBy('p.number')
    .orderBy('p.id')
    .execute()
}

export async function insertPage(db: Kysely<DB>, answerId: number, number: number, imageHash: string, now: number) {
  const row = await db
    .insertInto('written_answer_pages')
    .values({ answer_id: answerId, number, image_hash: imageHash, annotations: null, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/**
 * Removes the page, and its image's row once no page holds it; the image's file names come back for removal after
 * the transaction. False when the answer has no such page.
 */
export async function deletePage(db: Kysely<DB>, answerId: number, pageId: number) {
  const page = await db
    .deleteFrom('written_answer_pages')
    .where('id', '=', pageId)
    .where('answer_id', '=', answerId)
    .returning('image_hash')
    .executeTakeFirst()
  if (!page) return false
  return db
    .deleteFrom('page_images')
    .where('hash', '=', page.image_hash)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('written_answer_pages').select('id').where('image_hash', '=', page.image_hash))),
    )
    .returning(['data_key', 'phone_key'])
    .execute()
}

/** Numbers the pages 1.. in the order given. */
export async function numberPages(db: Kysely<DB>, answerId: number, order: readonly number[]) {
  for (const [index, pageId] of order.entries())
    await db
      .updateTable('written_answer_pages')
      .set({ number: index + 1 })
      .where('id', '=', pageId)
      .where('answer_id', '=', answerId)
      .execute()
}

export function findPageImage(db: Kysely<DB>, pageId: number) {
  return db
    .selectFrom('written_answer_pages as p')
    .innerJoin('page_images as i', 'i.hash', 'p.image_hash')
    .select(['i.data', 'i.data_key', 'i.content_type'])
    .where('p.id', '=', pageId)
    .executeTakeFirst()
}

/** The page's phone rendition, null for a page kept before renditions were made (docs/decisions/078). */
export function findPhoneImage(db: Kysely<DB>, pageId: number) {
  return db
    .selectFrom('written_answer_pages as p')
    .innerJoin('page_images as i', 'i.hash', 'p.image_hash')
    .select(['i.hash', 'i.phone_data', 'i.phone_key'])
    .where('p.id', '=', pageId)
    .executeTakeFirst()
}

export function listItemsOf(db: Kysely<DB>, answerId: number) {
  return db
    .selectFrom('written_answer_items as wi')
    .innerJoin('rubric_items as ri', 'ri.id', 'wi.item_id')
    .select(['ri.id', 'ri.title_en', 'ri.title_ne', 'ri.points', 'ri.explanation_en', 'ri.explanation_ne'])
    .where('wi.answer_id', '=', answerId)
    .orderBy('ri.position')
    .orderBy('ri.id')
    .execute()
}
