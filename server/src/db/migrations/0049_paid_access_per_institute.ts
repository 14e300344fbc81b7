import { sql, type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/103: paid access is a membership's, credited to the institute a payment was made on; until now it
// was the account's, so each membership starts with the account's end (access the learner had everywhere stays).
export const paidAccessPerInstitute = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('memberships').addColumn('paid_access_until', 'bigint').execute()
    await sql`update memberships set
        paid_access_until = (select u.paid_access_until from users u where u.id = memberships.user_id)`.execute(db)
    // A plain column (no index, key or check): both databases drop it in place, as 0042 dropped the roles.
    await db.schema.alterTable('users').dropColumn('paid_access_until').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('paid_access_until', 'bigint').execute()
    // The latest end of any membership: access the account had at some institute, it keeps.
    await sql`update users set
        paid_access_until = (select max(m.paid_access_until) from memberships m where m.user_id = users.id)`.execute(db)
    await db.schema.alterTable('memberships').dropColumn('paid_access_until').execute()
  },
})
