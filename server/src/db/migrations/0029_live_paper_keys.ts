import { type Kysely, type Migration } from 'kysely'

// docs/decisions/069: a live mock's paper key, made once so every process encrypts with the same one.
export const livePaperKeys = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('live_paper_keys')
      .addColumn('quiz_id', 'integer', (c) => c.primaryKey().references('quizzes.id').onDelete('cascade'))
      .addColumn('paper_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('live_paper_keys').execute()
  },
})
