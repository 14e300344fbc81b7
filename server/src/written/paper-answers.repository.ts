import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

export const findPaperAnswer = (db: Kysely<DB>, attemptId: number, questionId: number) =>
  db
    .selectFrom('written_answers')
    .select(['id', 'status'])
    .where('attempt_id', '=', attemptId)
    .where('question_id', '=', questionId)
    .executeTakeFirst()

export async function insertPaperAnswer(
  db: Kysely<DB>,
  answer: { attempt_id: number; question_id: number; revision_id: number },
  now: number,
) {
  const row = await db
    .insertInto('written_answers')
    .values({ ...answer, score_hundredths: null, created_at: now, updated_at: now } as never)
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(row.id)
}

export const listAnswerPageHashes = async (db: Kysely<DB>, answerId: number) =>
  (
    await db
      .selectFrom('written_answer_pages')
      .select('image_hash')
      .where('answer_id', '=', answerId)
      .orderBy('number')
      .execute()
  ).map((row) => row.image_hash)

/** The answer's pages become `hashes`, numbered 1.. in that order. */
export async function replaceAnswerPages(db: Kysely<DB>, answerId: number, hashes: readonly string[], now: number) {
  await db.deleteFrom('written_answer_pages').where('answer_id', '=', answerId).execute()
  if (hashes.length > 0)
    await db
      .insertInto('written_answer_pages')
      .values(
        hashes.map((hash, index) => ({
          answer_id: answerId,
          number: index + 1,
          image_hash: hash,
          annotations: null,
          created_at: now,
        })),
      )
      .execute()
}

export const deletePaperAnswer = (db: Kysely<DB>, answerId: number) =>
  db.deleteFrom('written_answers').where('id', '=', answerId).execute()
