import { type Kysely, type Migration } from 'kysely'

// docs/decisions/062, 063: attempts with marks not final are unranked; a live mock's leaderboard snapshot.
export const outcomes = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('attempts')
      .addColumn('marks_pending', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .createTable('leaderboard_snapshots')
      .addColumn('quiz_id', 'integer', (c) => c.primaryKey().references('quizzes.id').onDelete('cascade'))
      .addColumn('starts_at', 'bigint', (c) => c.notNull())
      .addColumn('participants', 'integer', (c) => c.notNull())
      .addColumn('top', 'text', (c) => c.notNull())
      .addColumn('top_cutoff', 'integer')
      .addColumn('taken_at', 'bigint', (c) => c.notNull())
      .addColumn('due_at', 'bigint')
      .execute()
    await db.schema.createIndex('leaderboard_snapshots_due').on('leaderboard_snapshots').column('due_at').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('leaderboard_snapshots').execute()
    await db.schema.alterTable('attempts').dropColumn('marks_pending').execute()
  },
})
