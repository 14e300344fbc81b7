import { type Kysely, type Migration } from 'kysely'

// docs/decisions/065: minutes after a deadline during which written answers' photos are still accepted.
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
