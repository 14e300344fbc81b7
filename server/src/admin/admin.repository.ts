import type { Kysely } from 'kysely'
import { IN_PROGRESS } from '../db/in-progress'
import type { DB, NewQuizRow, QuizRow, QuizRowUpdate } from '../db/schema'
import { appendFixedItems } from '../questions/quiz-papers.repository'
import { toOptionValues, toRevisionValues, type QuestionContent } from '../questions/question-revisions.repository'

export function listLiveQuizzes(db: Kysely<DB>): Promise<QuizRow[]> {
  return db
    .selectFrom('quizzes')
    .selectAll()
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

// `forUpdate` locks its row on PostgreSQL only: SQLite transactions are already exclusive.
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

export async function softDeleteQuiz(db: Kysely<DB>, id: number, now: number) {
  const result = await db
    .updateTable('quizzes')
    .set({ deleted_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

export async function setCurrentRevision(db: Kysely<DB>, questionId: number, revisionId: number) {
  await db.updateTable('questions').set({ revision_id: revisionId }).where('id', '=', questionId).execute()
}

// Rows per multi-row INSERT: well under SQLite's 32,766 bound parameters and PostgreSQL's 65,535.
const CHUNK_ROWS = 500

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = []
  for (let start = 0; start < items.length; start += CHUNK_ROWS) result.push(items.slice(start, start + CHUNK_ROWS))
  return result
}

// A handful of multi-row statements, not five per question; call it inside the transaction that created the quiz.
export async function insertQuestionsInBulk(
  db: Kysely<DB>,
  quizId: number | null,
  contents: readonly QuestionContent[],
  now: number,
): Promise<number[]> {
  if (contents.length === 0) return []
  const questionIds: number[] = []
  for (const part of chunks(contents)) {
    const rows = await db
      .insertInto('questions')
      .values(part.map(() => ({ revision_id: null, deleted_at: null })))
      .returning('id')
      .execute()
    // One statement's ids are given in row order on both databases; RETURNING's order is not guaranteed on SQLite.
    questionIds.push(...rows.map((row) => row.id).sort((a, b) => a - b))
  }

  const revisionIdByQuestionId = new Map<number, number>()
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

  for (const part of chunks(questionIds)) {
    await db
      .updateTable('questions')
      .set((eb) => ({
        revision_id: eb
          .selectFrom('question_revisions')
          .select((sub) => sub.fn.max('question_revisions.id').as('id'))
          .whereRef('question_revisions.question_id', '=', 'questions.id'),
      }))
      .where('id', 'in', part)
      .execute()
  }
  if (quizId !== null) await appendFixedItems(db, quizId, questionIds)
  return questionIds
}

export async function hasAttempts(db: Kysely<DB>, quizId: number) {
  const row = await db.selectFrom('attempts').select('id').where('quiz_id', '=', quizId).limit(1).executeTakeFirst()
  return row !== undefined
}

export async function hasRunningAttempt(db: Kysely<DB>, quizId: number, now: number) {
  const row = await db
    .selectFrom('attempts')
    .select('id')
    .where('quiz_id', '=', quizId)
    .where('status', '=', IN_PROGRESS)
    .where('deadline', '>', now)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

export async function hasFinishedAttempt(db: Kysely<DB>, quizId: number) {
  const row = await db
    .selectFrom('attempts')
    .select('id')
    .where('quiz_id', '=', quizId)
    .where('status', '=', 'finished')
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}
