import type { Kysely, Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 60 (docs/decisions/070): an announcement is sent in chunks of learners, each chunk in its own transaction
// with the row locked; `done_through` is the last learner id told, so a chunk is never sent twice.
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
