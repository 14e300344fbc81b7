import type { Kysely } from 'kysely'
import type { DB, NewQuizRow, QuizRow, QuizRowUpdate } from '../db/schema'
import { toOptionValues, toRevisionValues, type QuestionContent } from '../questions/question-revisions.repository'

/** Every quiz that is not deleted, most recently created first (each row carries its count of live questions). */
export function listLiveQuizzes(db: Kysely<DB>): Promise<QuizRow[]> {
  return db
    .selectFrom('quizzes')
    .selectAll()
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

/** A quiz that is not deleted. `forUpdate` locks its row (PostgreSQL only: SQLite transactions are already exclusive). */
export function findLiveQuiz(db: Kysely<DB>, id: number, { forUpdate = false } = {}) {
  return db
    .selectFrom('quizzes')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .$if(forUpdate, (query) => query.forUpdate())
    .executeTakeFirst()
}

export async function insertQuiz(db: Kysely<DB>, quiz: NewQuizRow) {
  const row = await db.insertInto('quizzes').values(quiz).returning('id').executeTakeFirstOrThrow()
  return row.id
}

export async function updateQuiz(db: Kysely<DB>, id: number, changes: QuizRowUpdate) {
  await db.updateTable('quizzes').set(changes).where('id', '=', id).execute()
}

/** Returns whether a live quiz was deleted. */
export async function softDeleteQuiz(db: Kysely<DB>, id: number, now: number) {
  const result = await db
    .updateTable('quizzes')
    .set({ deleted_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/** A live question of this quiz, with its current revision. */
export function findLiveQuestion(db: Kysely<DB>, quizId: number, questionId: number) {
  return db
    .selectFrom('questions')
    .select(['id', 'revision_id'])
    .where('id', '=', questionId)
    .where('quiz_id', '=', quizId)
    .where('deleted_at', 'is', null)
    .where('revision_id', 'is not', null)
    .executeTakeFirst() as Promise<{ id: number; revision_id: number } | undefined>
}

export async function setCurrentRevision(db: Kysely<DB>, questionId: number, revisionId: number) {
  await db.updateTable('questions').set({ revision_id: revisionId }).where('id', '=', questionId).execute()
}

/** Returns whether a live question of this quiz was deleted. */
export async function softDeleteQuestion(db: Kysely<DB>, quizId: number, questionId: number, now: number) {
  const result = await db
    .updateTable('questions')
    .set({ deleted_at: now })
    .where('id', '=', questionId)
    .where('quiz_id', '=', quizId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

// Rows per multi-row INSERT: well under SQLite's 32,766 bound parameters and PostgreSQL's 65,535.
const CHUNK_ROWS = 500

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = []
  for (let start = 0; start < items.length; start += CHUNK_ROWS) result.push(items.slice(start, start + CHUNK_ROWS))
  return result
}

/**
 * Writes the questions of a new quiz, in order, with one first revision each: the rows insertQuestion
 * would write, in a handful of multi-row statements instead of five per question (create-from-JSON takes
 * up to 500 questions). Call it inside the transaction that created the quiz.
 */
export async function insertQuestionsInBulk(
  db: Kysely<DB>,
  quizId: number,
  contents: readonly QuestionContent[],
  now: number,
) {
  if (contents.length === 0) return
  const questionIdByPosition = new Map<number, number>()
  for (const part of chunks(contents.map((_, index) => index + 1))) {
    const rows = await db
      .insertInto('questions')
      .values(part.map((position) => ({ quiz_id: quizId, position, revision_id: null, deleted_at: null })))
      .returning(['id', 'position'])
      .execute()
    // RETURNING order is not guaranteed on SQLite: match rows by position, which is unique in a new quiz.
    for (const row of rows) questionIdByPosition.set(row.position, row.id)
  }

  const revisionIdByQuestionId = new Map<number, number>()
  const questionIds = contents.map((_, index) => questionIdByPosition.get(index + 1)!)
  for (const part of chunks(contents.map((content, index) => ({ content, questionId: questionIds[index]! })))) {
    const rows = await db
      .insertInto('question_revisions')
      .values(part.map(({ content, questionId }) => toRevisionValues(questionId, content, now)))
      .returning(['id', 'question_id'])
      .execute()
    for (const row of rows) revisionIdByQuestionId.set(row.question_id, row.id)
  }

  const options = contents.flatMap((content, index) =>
    toOptionValues(revisionIdByQuestionId.get(questionIds[index]!)!, content.options),
  )
  for (const part of chunks(options)) await db.insertInto('question_options').values(part).execute()

  // Point every new question at its revision in one statement.
  await db
    .updateTable('questions')
    .set((eb) => ({
      revision_id: eb
        .selectFrom('question_revisions')
        .select((sub) => sub.fn.max('question_revisions.id').as('id'))
        .whereRef('question_revisions.question_id', '=', 'questions.id'),
    }))
    .where('quiz_id', '=', quizId)
    .execute()
}
