import { type Kysely, type Migration } from 'kysely'

// docs/decisions/068: a marker reaches the marking routes and nothing else of the admin's.
export const markers = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('is_marker', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').dropColumn('is_marker').execute()
  },
})
