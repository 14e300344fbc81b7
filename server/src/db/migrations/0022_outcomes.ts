import { type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 55 (docs/decisions/062, 063): an attempt whose marks are not all final yet (a written part awaiting release)
// is not counted in ranks; a live mock's leaderboard is a snapshot written when the mock ends, whose row is also the
// claim of the job that ends it (one process, whatever their number).
export const outcomes = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('attempts')
      .addColumn('marks_pending', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema
      .createTable('leaderboard_snapshots')
      .addColumn('quiz_id', 'integer', (c) => c.primaryKey().references('quizzes.id').onDelete('cascade'))
      // The live_starts_at the snapshot was taken for: a mock moved later is ended again.
      .addColumn('starts_at', 'bigint', (c) => c.notNull())
      .addColumn('participants', 'integer', (c) => c.notNull())
      // JSON [{rank, user_id, score_hundredths}]: the entries ranked 20 or better, ties included.
      .addColumn('top', 'text', (c) => c.notNull())
      // The lowest score in `top` once it holds 20 ranks; null while fewer: a later finish below it leaves top alone.
      .addColumn('top_cutoff', 'integer')
      .addColumn('taken_at', 'bigint', (c) => c.notNull())
      // When ranked attempts with extra time still running will have run out: the job's next pass on this mock.
      .addColumn('due_at', 'bigint')
      .execute()
    await db.schema.createIndex('leaderboard_snapshots_due').on('leaderboard_snapshots').column('due_at').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('leaderboard_snapshots').execute()
    await db.schema.alterTable('attempts').dropColumn('marks_pending').execute()
  },
})
