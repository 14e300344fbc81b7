import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { currentInstitute } from '../db/request-scope'
import { FIRST_INSTITUTE_ID } from '../db/tenancy'
import { mayTakePaidQuizzes } from './paid-access'

// An admin of the institute the request is for (no scope: the deployment's one institute; decision 096).
export async function hasPaidAccess(db: Kysely<DB>, userId: number, now: number) {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('memberships as m', (join) =>
      join.onRef('m.user_id', '=', 'u.id').on('m.institute_id', '=', currentInstitute() ?? FIRST_INSTITUTE_ID),
    )
    .select(['m.is_admin', 'u.paid_access_until'])
    .where('u.id', '=', userId)
    .executeTakeFirst()
  return row !== undefined && mayTakePaidQuizzes(row, now)
}
