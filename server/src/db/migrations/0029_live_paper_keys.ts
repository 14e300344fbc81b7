import { type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 60 (docs/decisions/069): a live mock's paper is served ahead, encrypted; its key (32 random bytes, base64url)
// is made by the first fetch or start and never changes, so every process and machine encrypts with the same one.
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
