import type { Kysely, Migration } from 'kysely'

// docs/decisions/070: `done_through`, the last learner told, so an announcement's chunk is never sent twice.
export const announcementChunks = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('live_announcements')
      .addColumn('done_through', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('live_announcements').dropColumn('done_through').execute()
  },
})
