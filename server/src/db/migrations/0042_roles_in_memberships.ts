import { sql, type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/096: an account's roles are its memberships' (one per institute); users keep none of their own.
export const rolesInMemberships = (): Migration => ({
  async up(db: Kysely<unknown>) {
    const now = Date.now()
    // Accounts made by a server that ran 0040 but wrote roles on users: their place is the first institute.
    await sql`insert into memberships (user_id, institute_id, is_learner, is_admin, is_marker, created_at)
      select u.id, 1, 1, u.is_admin, u.is_marker, ${now} from users u
      where not exists (select 1 from memberships m where m.user_id = u.id)`.execute(db)
    await sql`update memberships set
        is_admin = (select u.is_admin from users u where u.id = memberships.user_id),
        is_marker = (select u.is_marker from users u where u.id = memberships.user_id)
      where institute_id = 1`.execute(db)
    await db.schema.alterTable('users').dropColumn('is_admin').execute()
    await db.schema.alterTable('users').dropColumn('is_marker').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .alterTable('users')
      .addColumn('is_marker', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await sql`update users set
        is_admin = coalesce((select m.is_admin from memberships m where m.user_id = users.id and m.institute_id = 1), 0),
        is_marker = coalesce((select m.is_marker from memberships m where m.user_id = users.id and m.institute_id = 1), 0)`.execute(
      db,
    )
  },
})
