import { sql, type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// Issue 82, the hot path (docs/decisions/132). Cached papers carry their passages, which are live (an edit shows on
// every paper), so each question fetch and autosave asked for `max(version), count(*)` of the institute's passages:
// a statement of its own on every hot request, growing with the institute's passages. The institute's row now keeps
// one number that every write of a passage or of its questions raises, read in the same statement as the attempt.
// Existing institutes start at 1 (they may hold passages: their papers read them); new ones at 0 (none yet, so their
// papers skip the passage read until the first is written).
export const passagesVersion = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('institutes')
      .addColumn('passages_version', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await sql`update institutes set passages_version = 1`.execute(db)
    await db.schema.alterTable('passages').dropColumn('version').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema
      .alterTable('passages')
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
    await db.schema.alterTable('institutes').dropColumn('passages_version').execute()
  },
})
