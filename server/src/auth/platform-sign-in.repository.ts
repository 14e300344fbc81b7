import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'

/** Whether the account is a member of the institute, in any role (docs/decisions/097: platform-sign-in.ts). */
export function findMembership(db: Kysely<DB>, userId: number, instituteId: number) {
  return db
    .selectFrom('memberships')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('institute_id', '=', instituteId)
    .executeTakeFirst()
}
