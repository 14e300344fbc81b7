import type { Kysely, Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 81 (docs/decisions/114): a question that cannot be answered without seeing its picture, a learner who uses a
// screen reader, and how many questions a learner's paper left out for that (null: none; the paper as authored).
export const blindLearners = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('questions')
      .addColumn('needs_sight', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .alterTable('users')
      .addColumn('screen_reader', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema.alterTable('attempts').addColumn('left_out', 'integer').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('attempts').dropColumn('left_out').execute()
    await db.schema.alterTable('users').dropColumn('screen_reader').execute()
    await db.schema.alterTable('questions').dropColumn('needs_sight').execute()
  },
})
