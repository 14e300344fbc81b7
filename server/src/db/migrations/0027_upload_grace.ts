import { type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 56 (docs/decisions/065, "Answering online"): minutes after an attempt's deadline during which its written
// answers' page photos are still accepted (a bad connection), 0..60.
export const uploadGrace = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('quizzes')
      .addColumn('upload_grace_minutes', 'integer', (c) => c.notNull().defaultTo(15))
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('quizzes').dropColumn('upload_grace_minutes').execute()
  },
})
