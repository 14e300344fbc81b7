import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

// An institute's copy of a national mock (docs/decisions/102): the quiz and questions marked with the mock's id.

export async function markQuestionForMock(db: Kysely<DB>, questionId: number, mockId: number) {
  await db.updateTable('questions').set({ national_mock_id: mockId }).where('id', '=', questionId).execute()
}

export async function markQuizForMock(db: Kysely<DB>, quizId: number, mockId: number) {
  await db.updateTable('quizzes').set({ national_mock_id: mockId }).where('id', '=', quizId).execute()
}

/** Soft-deletes a copy's quiz and every question copied for its mock; nothing for another quiz. */
export async function softDeleteCopy(db: Kysely<DB>, quizId: number, now: number) {
  const quiz = await db.selectFrom('quizzes').select('national_mock_id').where('id', '=', quizId).executeTakeFirst()
  if (!quiz?.national_mock_id) return
  await db.updateTable('quizzes').set({ deleted_at: now }).where('id', '=', quizId).execute()
  await db
    .updateTable('questions')
    .set({ deleted_at: now })
    .where('national_mock_id', '=', quiz.national_mock_id)
    .where('deleted_at', 'is', null)
    .execute()
}

export function findCopyQuiz(db: Kysely<DB>, quizId: number) {
  return db
    .selectFrom('quizzes')
    .select(['national_mock_id', 'live_starts_at', 'duration_minutes'])
    .where('id', '=', quizId)
    .where('national_mock_id', 'is not', null)
    .executeTakeFirst()
}

export function findCopyQuestion(db: Kysely<DB>, questionId: number) {
  return db
    .selectFrom('questions')
    .select('national_mock_id')
    .where('id', '=', questionId)
    .where('national_mock_id', 'is not', null)
    .executeTakeFirst()
}

/** The institute's copy quiz of a mock (the newest, should it have left and joined again). */
export function findQuizOfMock(db: Kysely<DB>, mockId: number) {
  return db
    .selectFrom('quizzes')
    .select(['live_starts_at', 'duration_minutes'])
    .where('national_mock_id', '=', mockId)
    .orderBy('id', 'desc')
    .executeTakeFirst()
}
