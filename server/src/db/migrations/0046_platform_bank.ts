import { sql, type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/101: the platform's bank is the bank of a reserved institute row, id 0 and slug `~platform` (no slug
// can be it), never in the host table nor listed as an institute; a question copied from it names its source.
export const platformBank = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await sql`insert into institutes (id, slug, name_en, name_ne, open_registration, status, created_at)
      values (0, '~platform', 'Platform', '', 0, 'active', 0)`.execute(db)
    // No foreign key: the source is another institute's row, and a copy outlives its deletion.
    await db.schema.alterTable('questions').addColumn('copied_from_question_id', 'integer').execute()
    await db.schema.alterTable('questions').addColumn('copied_from_revision', 'integer').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('questions').dropColumn('copied_from_revision').execute()
    await db.schema.alterTable('questions').dropColumn('copied_from_question_id').execute()
    await sql`delete from institutes where id = 0`.execute(db)
  },
})
