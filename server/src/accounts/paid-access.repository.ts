import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { mayTakePaidQuizzes } from './paid-access'

/** Whether the learner may take paid-tier quizzes now: a start, a submit, a live mock's board and register ask. */
export async function hasPaidAccess(db: Kysely<DB>, userId: number, now: number) {
  const row = await db
    .selectFrom('users')
    .select(['is_admin', 'paid_access_until'])
    .where('id', '=', userId)
    .executeTakeFirst()
  return row !== undefined && mayTakePaidQuizzes(row, now)
}
