import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { currentInstitute } from '../db/request-scope'
import { FIRST_INSTITUTE_ID } from '../db/tenancy'
import { mayTakePaidQuizzes } from './paid-access'

// An admin of, or paid-up at, the institute the request is for (no scope: the deployment's one institute): both are
// the membership's there (docs/decisions/096, 103), so access bought at another institute opens nothing here.
export async function hasPaidAccess(db: Kysely<DB>, userId: number, now: number) {
  const row = await db
    .selectFrom('memberships as m')
    .select(['m.is_admin', 'm.paid_access_until'])
    .where('m.user_id', '=', userId)
    .where('m.institute_id', '=', currentInstitute() ?? FIRST_INSTITUTE_ID)
    .executeTakeFirst()
  return row !== undefined && mayTakePaidQuizzes(row, now)
}

/** The end of the account's paid access in the institute (null: none, or no membership there). */
export async function findPaidAccessUntil(db: Kysely<DB>, userId: number, instituteId: number) {
  const row = await db
    .selectFrom('memberships')
    .select('paid_access_until')
    .where('user_id', '=', userId)
    .where('institute_id', '=', instituteId)
    .executeTakeFirst()
  return row?.paid_access_until ?? null
}

/** Sets the end of paid access in one institute: the membership's, so the account's others keep theirs. */
export async function setPaidAccessUntil(db: Kysely<DB>, userId: number, instituteId: number, until: number | null) {
  await db
    .updateTable('memberships')
    .set({ paid_access_until: until })
    .where('user_id', '=', userId)
    .where('institute_id', '=', instituteId)
    .execute()
}
