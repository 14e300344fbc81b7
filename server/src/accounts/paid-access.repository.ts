import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { mayTakePaidQuizzes } from './paid-access'

export async function hasPaidAccess(db: Kysely<DB>, userId: number, now: number) {
  const row = await db
    .selectFrom('users')
    .select(['is_admin', 'paid_access_until'])
    .where('id', '=', userId)
    .executeTakeFirst()
  return row !== undefined && mayTakePaidQuizzes(row, now)
}
